import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, createCustomer, customerSession, loginCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { client } from '../helpers/http.js';

let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start(), FRONTEND_URL: 'https://app.example.test' } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const { post } = client(() => t, () => ({ prefix: '/api/auth/profile/change-email/' }));
const inf = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } });

async function otpFor(email: string, after: number): Promise<string> {
  const mail = await smtp.waitFor(email, (m) => /verification code/i.test(m.subject) && smtp.mails.indexOf(m) >= after);
  return /code to .* is (\d{6})/.exec(mail.text)![1]!;
}

function expect400(res: { statusCode: number; json(): any }, code: string) {
  assert.equal(res.statusCode, 400, JSON.stringify(res.json()));
  assert.equal(res.json().code, code);
}

describe('change of e-mail', () => {
  test('four steps end to end, reading both mails; other sessions end, this one gets new cookies', async () => {
    const c = await createCustomer(t, { email: 'old.address@example.test' });
    const cookie = await loginCustomer(t, c.email, c.password);
    const otherDevice = await loginCustomer(t, c.email, c.password);

    const mark = smtp.mails.length;
    const req = await post('request', undefined, cookie);
    assert.equal(req.statusCode, 200, req.body);
    const code = await otpFor(c.email, mark);

    const verify = await post('verify-old', { code }, cookie);
    assert.equal(verify.statusCode, 200, verify.body);
    const stepToken = verify.json().data.token;
    assert.equal(typeof stepToken, 'string');

    const send = await post('send-new', { token: stepToken, new_email: 'New.Address@example.test' }, cookie);
    assert.equal(send.statusCode, 200, send.body);
    const link = await smtp.waitFor('New.Address@example.test', (m) => /confirm your new/i.test(m.subject));
    const url = /(https:\/\/app\.example\.test\/\S+)/.exec(link.text)![1]!;
    const token = new URL(url).searchParams.get('token')!;
    assert.ok(token);

    const confirm = await post('confirm-new', { token }, cookie);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.deepEqual(confirm.json().data, { email: 'New.Address@example.test' });
    const fresh = cookiesOf(confirm);
    assert.ok(fresh.access_token && fresh.refresh_token);
    const newCookie = cookieHeader(fresh);
    assert.equal((await inf(newCookie)).json().data.email, 'New.Address@example.test');
    assert.equal((await inf(otherDevice)).statusCode, 401);
    // the replaced refresh token of this session is dead too
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } })).statusCode, 401);
    // the old address is told
    await smtp.waitFor('old.address@example.test', (m) => /was changed/i.test(m.subject));
    // the link is single use
    expect400(await post('confirm-new', { token }, newCookie), 'INVALID_TOKEN');
    // log in with the new address
    assert.ok(await loginCustomer(t, 'new.address@example.test', c.password));
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } })).statusCode, 401);
  });

  test('a password reset link mailed to the old address dies with the change', async () => {
    const c = await createCustomer(t, { email: 'leaving.box@example.test' });
    const cookie = await loginCustomer(t, c.email, c.password);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: c.email } })).statusCode, 200);
    const resetMail = await smtp.waitFor(c.email, (m) => /reset/i.test(m.subject));
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;

    const mark = smtp.mails.length;
    assert.equal((await post('request', undefined, cookie)).statusCode, 200);
    const stepToken = (await post('verify-old', { code: await otpFor(c.email, mark) }, cookie)).json().data.token;
    assert.equal((await post('send-new', { token: stepToken, new_email: 'arrived.box@example.test' }, cookie)).statusCode, 200);
    const link = await smtp.waitFor('arrived.box@example.test', (m) => /confirm your new/i.test(m.subject));
    const token = new URL(/(https:\/\/app\.example\.test\/\S+)/.exec(link.text)![1]!).searchParams.get('token')!;
    assert.equal((await post('confirm-new', { token }, cookie)).statusCode, 200);

    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token: resetToken, new_password: 'Hij4cked!Pass' } });
    expect400(reset, 'INVALID_TOKEN');
    assert.ok(await loginCustomer(t, 'arrived.box@example.test', c.password));
  });

  test('every step needs the session cookies', async () => {
    for (const step of ['request', 'verify-old', 'send-new', 'confirm-new']) {
      assert.equal((await post(step, { code: '123456' }, undefined)).statusCode, 401, step);
    }
  });

  test('each step refuses bad input with 400 and changes nothing', async () => {
    const s = await customerSession(t);
    const taken = await createCustomer(t);
    const other = await customerSession(t);

    // verify-old before any request, then a wrong and a malformed code
    expect400(await post('verify-old', { code: '123456' }, s.cookie), 'INVALID_CODE');
    const mark = smtp.mails.length;
    await post('request', undefined, s.cookie);
    const code = await otpFor(s.email, mark);
    const wrong = code === '000000' ? '111111' : '000000';
    expect400(await post('verify-old', { code: wrong }, s.cookie), 'INVALID_CODE');
    expect400(await post('verify-old', { code: 'abc' }, s.cookie), 'INVALID_CODE');
    assert.equal((await post('verify-old', { code, extra: 1 }, s.cookie)).statusCode, 400);
    // another customer cannot use my code
    expect400(await post('verify-old', { code }, other.cookie), 'INVALID_CODE');
    const stepToken = (await post('verify-old', { code }, s.cookie)).json().data.token;
    expect400(await post('verify-old', { code }, s.cookie), 'INVALID_CODE'); // used

    // send-new: bad token, bad e-mail, taken e-mail (409), another customer's token
    expect400(await post('send-new', { token: 'nope', new_email: 'x@example.test' }, s.cookie), 'INVALID_TOKEN');
    expect400(await post('send-new', { token: stepToken, new_email: 'not-an-email' }, s.cookie), 'VALIDATION_FAILED');
    const conflict = await post('send-new', { token: stepToken, new_email: taken.email }, s.cookie);
    assert.equal(conflict.statusCode, 409);
    expect400(await post('send-new', { token: stepToken, new_email: 'x@example.test' }, other.cookie), 'INVALID_TOKEN');
    // the step token expires after 15 minutes
    clock.advance(16 * 60_000);
    // access tokens live 15 minutes too: log in again after moving the clock
    const mine = await loginCustomer(t, s.email, s.password);
    const theirs = await loginCustomer(t, other.email, other.password);
    expect400(await post('send-new', { token: stepToken, new_email: 'later@example.test' }, mine), 'INVALID_TOKEN');

    // confirm-new: garbage, another customer's link, expired link
    expect400(await post('confirm-new', { token: 'garbage' }, mine), 'INVALID_TOKEN');
    const mark2 = smtp.mails.length;
    await post('request', undefined, mine);
    const token2 = (await post('verify-old', { code: await otpFor(s.email, mark2) }, mine)).json().data.token;
    assert.equal((await post('send-new', { token: token2, new_email: 'brand.new@example.test' }, mine)).statusCode, 200);
    const link = await smtp.waitFor('brand.new@example.test');
    const linkToken = /token=([A-Za-z0-9_-]+)/.exec(link.text)![1]!;
    expect400(await post('confirm-new', { token: linkToken }, theirs), 'INVALID_TOKEN');
    clock.advance(25 * 3600_000);
    const cookie = await loginCustomer(t, s.email, s.password);
    expect400(await post('confirm-new', { token: linkToken }, cookie), 'INVALID_TOKEN');

    const r = await t.container.db.execute(sql`select email from customers where id = ${s.id}`);
    assert.equal((r as any).rows[0].email, s.email);
  });

  test('a code expires after 10 minutes and five wrong codes void it', async () => {
    const s = await customerSession(t);
    let mark = smtp.mails.length;
    await post('request', undefined, s.cookie);
    let code = await otpFor(s.email, mark);
    clock.advance(11 * 60_000);
    const cookie = await loginCustomer(t, s.email, s.password);
    expect400(await post('verify-old', { code }, cookie), 'INVALID_CODE');

    mark = smtp.mails.length;
    await post('request', undefined, cookie);
    code = await otpFor(s.email, mark);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect400(await post('verify-old', { code: wrong }, cookie), 'INVALID_CODE');
    expect400(await post('verify-old', { code }, cookie), 'INVALID_CODE');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, createCustomer, customerSession, loginCustomer } from '../helpers/customers.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { setMaintenance } from '../helpers/settings.js';
import { client } from '../helpers/http.js';

let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start() } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const { post } = client(() => t);
const alive = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie } })).statusCode === 200;

async function customerRow(id: number) {
  return ((await t.container.db.execute(sql`select * from customers where id = ${id}`)) as any).rows[0];
}

describe('register input', () => {
  test('bad input is a 400 in the error shape and creates nothing', async () => {
    const base = { email: 'reg.check@example.test', password: 'G00d!Password', first_name: 'Reg', last_name: 'Check', account_type: 'P' };
    const cases: [object, string][] = [
      [{ ...base, password: 'weakpassword' }, 'password'],
      [{ ...base, password: 'Sh0rt!' }, 'password'],
      [{ ...base, account_type: 'X' }, 'account_type'],
      [{ ...base, email: 'not-an-email' }, 'email'],
      [{ ...base, first_name: '' }, 'first_name'],
      [{ ...base, admin: true }, 'admin'],
      [{ email: base.email, password: base.password }, 'first_name'],
    ];
    for (const [payload, field] of cases) {
      const res = await post('/api/auth/register', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      const body = res.json();
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.ok(body.errors.some((e: any) => e.field === field), JSON.stringify(body.errors));
    }
    const n = ((await t.container.db.execute(sql`select count(*)::int as n from customers where email = ${base.email}`)) as any).rows[0].n;
    assert.equal(n, 0);
    assert.equal((await post('/api/auth/register', base)).statusCode, 201);
  });

  test('the verification link expires after 24 hours', async () => {
    const email = 'slow.verifier@example.test';
    assert.equal((await post('/api/auth/register', { email, password: 'G00d!Password', first_name: 'S', last_name: 'V', account_type: 'B' })).statusCode, 201);
    const mail = await smtp.waitFor(email);
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    clock.advance(24 * 3600_000 + 1000);
    assert.equal((await post('/api/auth/register/verify', { token })).statusCode, 400);
    // a new link on request (same answer for unknown addresses)
    const unknown = await post('/api/auth/register/resend', { email: 'nobody.at.all@example.test' });
    const known = await post('/api/auth/register/resend', { email });
    assert.equal(known.statusCode, 200);
    assert.deepEqual(unknown.json(), known.json());
    const again = await smtp.waitFor(email, (m) => !m.text.includes(token));
    const token2 = /token=([A-Za-z0-9_-]+)/.exec(again.text)![1]!;
    assert.equal((await post('/api/auth/register/verify', { token: token2 })).statusCode, 200);
    assert.equal((await post('/api/auth/login', { email, password: 'G00d!Password' })).statusCode, 200);
  });
});

describe('password change', () => {
  test('needs the current password and a strong new one; other sessions end', async () => {
    const c = await createCustomer(t);
    const here = await loginCustomer(t, c.email, c.password);
    const there = await loginCustomer(t, c.email, c.password);
    const wrong = await post('/api/auth/password/change', { current_password: 'Wr0ng!Password', new_password: 'N3w!Password' }, here);
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'INVALID_PASSWORD');
    const weak = await post('/api/auth/password/change', { current_password: c.password, new_password: 'password' }, here);
    assert.equal(weak.statusCode, 400);
    assert.equal(weak.json().errors[0].field, 'new_password');
    const before = (await customerRow(c.id)).password_hash;
    assert.equal((await post('/api/auth/password/change', { current_password: c.password, new_password: 'N3w!Password', x: 1 }, here)).statusCode, 400);
    assert.equal((await customerRow(c.id)).password_hash, before);

    const ok = await post('/api/auth/password/change', { current_password: c.password, new_password: 'N3w!Password' }, here);
    assert.equal(ok.statusCode, 200);
    assert.match((await customerRow(c.id)).password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await alive(here), true);
    assert.equal(await alive(there), false);
    assert.equal((await post('/api/auth/login', { email: c.email, password: c.password })).statusCode, 401);
    assert.ok(await loginCustomer(t, c.email, 'N3w!Password'));
  });

  test('a 2FA login waiting for its code when the password changes cannot finish', async () => {
    const c = await createCustomer(t, { email: `challenge-${Date.now()}@example.test` });
    const here = await loginCustomer(t, c.email, c.password);
    const { secret } = await enable2fa(t, clock, c.id);
    const login = await post('/api/auth/login', { email: c.email, password: c.password });
    assert.deepEqual(login.json().data, { redirect: '2FA' });
    const challenge = cookieHeader({ mfa_challenge: cookiesOf(login).mfa_challenge! });
    assert.equal((await post('/api/auth/password/change', { current_password: c.password, new_password: 'N3w!Password' }, here)).statusCode, 200);
    const finish = await post('/api/auth/2fa/verify-code', { email: c.email, code: nextCode(clock, secret) }, challenge);
    assert.equal(finish.statusCode, 401, finish.body);
    assert.ok(!cookiesOf(finish).access_token);
  });
});

describe('password change voids outstanding reset links', () => {
  test('a reset link mailed before the change no longer works after it', async () => {
    const c = await createCustomer(t, { email: `voided-${Date.now()}@example.test` });
    const here = await loginCustomer(t, c.email, c.password);
    assert.equal((await post('/api/auth/password/forgot', { email: c.email })).statusCode, 200);
    const mail = await smtp.waitFor(c.email, (m) => /reset/i.test(m.subject));
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    assert.equal((await post('/api/auth/password/change', { current_password: c.password, new_password: 'N3w!Password' }, here)).statusCode, 200);
    const reset = await post('/api/auth/password/reset', { token, new_password: 'R3set!Password' });
    assert.equal(reset.statusCode, 400);
    assert.equal(reset.json().code, 'INVALID_TOKEN');
    assert.ok(await loginCustomer(t, c.email, 'N3w!Password'));
  });
});

describe('forgotten password', () => {
  test('always 200; the link (1 hour, single use) sets a new password and ends every session', async () => {
    const c = await createCustomer(t, { email: 'forgetful@example.test' });
    const session = await loginCustomer(t, c.email, c.password);
    const unknown = await post('/api/auth/password/forgot', { email: 'nobody.here@example.test' });
    const known = await post('/api/auth/password/forgot', { email: c.email });
    assert.equal(unknown.statusCode, 200);
    assert.equal(known.statusCode, 200);
    assert.deepEqual(unknown.json(), known.json());
    const mail = await smtp.waitFor(c.email, (m) => /reset/i.test(m.subject));
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

    const weak = await post('/api/auth/password/reset', { token, new_password: 'weak' });
    assert.equal(weak.statusCode, 400);
    assert.equal((await post('/api/auth/password/reset', { token: 'bogus', new_password: 'R3set!Password' })).json().code, 'INVALID_TOKEN');
    const ok = await post('/api/auth/password/reset', { token, new_password: 'R3set!Password' });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(await alive(session), false);
    assert.equal((await post('/api/auth/password/reset', { token, new_password: 'Oth3r!Password' })).statusCode, 400);
    assert.ok(await loginCustomer(t, c.email, 'R3set!Password'));

    // a second link expires after an hour
    await post('/api/auth/password/forgot', { email: c.email });
    const later = await smtp.waitFor(c.email, (m) => /reset your password/i.test(m.subject) && !m.text.includes(token));
    const token2 = /token=([A-Za-z0-9_-]+)/.exec(later.text)![1]!;
    clock.advance(3600_000 + 1000);
    assert.equal((await post('/api/auth/password/reset', { token: token2, new_password: 'Oth3r!Password' })).statusCode, 400);
  });
});

describe('maintenance mode', () => {
  test('the customer API answers 503 except login and refresh', async () => {
    const s = await customerSession(t);
    await setMaintenance(t, true);
    try {
      const inf = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: s.cookie } });
      assert.equal(inf.statusCode, 503);
      assert.equal(inf.json().code, 'MAINTENANCE');
      assert.equal((await post('/api/auth/register', { email: 'm@example.test', password: 'G00d!Password', first_name: 'M', last_name: 'M', account_type: 'P' })).statusCode, 503);
      assert.equal((await post('/api/auth/login', { email: s.email, password: s.password })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } })).statusCode, 200);
    } finally {
      await setMaintenance(t, false);
    }
  });

  test('customerSession helper gives a working cookie', async () => {
    const s = await customerSession(t);
    assert.equal(await alive(s.cookie), true);
  });
});

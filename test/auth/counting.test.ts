import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, customerSession } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';
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
const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

describe('wrong TOTP codes count towards the account lock', () => {
  test('sudo: the right password with a wrong code, 10 times, locks the account', async () => {
    const s = await customerSession(t);
    const { secret } = await enable2fa(t, clock, s.id);
    for (let i = 1; i <= 9; i++) {
      const r = await post('/api/auth/profile/sudo', { password: s.password, code: wrongCode(nextCode(clock, secret)) }, { cookie: s.cookie });
      assert.equal(r.statusCode, 400, `attempt ${i}: ${r.body}`);
      assert.equal(r.json().code, 'INVALID_CODE');
    }
    const tenth = await post('/api/auth/profile/sudo', { password: s.password, code: wrongCode(nextCode(clock, secret)) }, { cookie: s.cookie });
    assert.equal(tenth.statusCode, 429, tenth.body);
    // locked everywhere, even with the right password and code
    assert.equal((await post('/api/auth/profile/sudo', { password: s.password, code: nextCode(clock, secret) }, { cookie: s.cookie })).statusCode, 429);
    assert.equal((await post('/api/auth/login', { email: s.email, password: s.password })).statusCode, 429);
  });

  test('2FA disable: 10 wrong codes lock the account', async () => {
    const s = await customerSession(t);
    const { secret } = await enable2fa(t, clock, s.id);
    const sudo = await post('/api/auth/profile/sudo', { password: s.password, code: nextCode(clock, secret) }, { cookie: s.cookie });
    assert.equal(sudo.statusCode, 200, sudo.body);
    const headers = { cookie: s.cookie, 'x-access-token': sudo.json().data.token as string };
    // the clock stays within the sudo token's 5 minutes: one wrong code, ten times
    const wrong = wrongCode(nextCode(clock, secret));
    for (let i = 1; i <= 9; i++) assert.equal((await post('/api/auth/profile/2fa/disable', { code: wrong }, headers)).statusCode, 400, `attempt ${i}`);
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: wrong }, headers)).statusCode, 429);
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: nextCode(clock, secret) }, headers)).statusCode, 429);
    assert.equal((await post('/api/auth/login', { email: s.email, password: s.password })).statusCode, 429);
  });

  test('a 2FA login counts until its second factor succeeds: logging in again and again for fresh challenges locks', async () => {
    const s = await customerSession(t);
    const { secret } = await enable2fa(t, clock, s.id);
    // a normal 2FA login leaves no count behind
    const first = await post('/api/auth/login', { email: s.email, password: s.password });
    const done = await post('/api/auth/2fa/verify-code', { email: s.email, code: nextCode(clock, secret) }, { cookie: cookieHeader({ mfa_challenge: cookiesOf(first).mfa_challenge! }) });
    assert.equal(done.statusCode, 200, done.body);
    let challenge = '';
    for (let i = 1; i <= 9; i++) {
      const r = await post('/api/auth/login', { email: s.email, password: s.password });
      assert.equal(r.statusCode, 200, `login ${i}: ${r.body}`);
      challenge = cookieHeader({ mfa_challenge: cookiesOf(r).mfa_challenge! });
    }
    assert.equal((await post('/api/auth/login', { email: s.email, password: s.password })).statusCode, 429);
    const late = await post('/api/auth/2fa/verify-code', { email: s.email, code: nextCode(clock, secret) }, { cookie: challenge });
    assert.equal(late.statusCode, 429, late.body);
  });
});

describe('e-mail change OTP attempts', () => {
  test('30 parallel guesses: the OTP is checked at most 5 times, then even the right code is refused', async () => {
    const s = await customerSession(t);
    const mark = smtp.mails.length;
    assert.equal((await post('/api/auth/profile/change-email/request', undefined, { cookie: s.cookie })).statusCode, 200);
    const mail = await smtp.waitFor(s.email, (m) => /verification code/i.test(m.subject) && smtp.mails.indexOf(m) >= mark);
    const code = /code to .* is (\d{6})/.exec(mail.text)![1]!;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/auth/profile/change-email/verify-old', { code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0') }, { cookie: s.cookie })),
    );
    assert.ok(results.every((r) => r.statusCode === 400 && r.json().code === 'INVALID_CODE'), results.map((r) => r.statusCode).join(','));
    const [row] = await queryRows<{ attempts: number }>(
      t.container.db,
      sql`select failed_attempts as attempts from customer_auth_tokens where customer_id = ${s.id} and purpose = 'email_change_otp'`,
    );
    assert.equal(row!.attempts, 5, 'every attempt counted in the same statement as its check');
    const right = await post('/api/auth/profile/change-email/verify-old', { code }, { cookie: s.cookie });
    assert.equal(right.statusCode, 400);
  });
});

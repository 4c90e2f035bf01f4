import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { totpCode } from '../../src/platform/crypto/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, createCustomer, loginCustomer } from '../helpers/customers.js';
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
const sessions = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie } });

async function rows<T>(q: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.container.db.execute(q)) as unknown as { rows: T[] }).rows;
}

/** Password login of a 2FA account: returns the challenge cookie header. */
async function challengeFor(email: string, password: string): Promise<string> {
  const res = await post('/api/auth/login', { email, password });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json().data, { redirect: '2FA' });
  const c = cookiesOf(res);
  assert.ok(c.mfa_challenge);
  assert.ok(!c.access_token && !c.refresh_token, 'no full cookies before the second factor');
  return cookieHeader({ mfa_challenge: c.mfa_challenge });
}

describe('register → verify → login → sudo → 2FA on → login with TOTP', () => {
  test('the full flow through HTTP and SMTP', async () => {
    const email = 'flow.user@example.test';
    const password = 'Fl0w!Password';
    const reg = await post('/api/auth/register', { email, password, first_name: 'Flow', last_name: 'User', account_type: 'P' });
    assert.equal(reg.statusCode, 201, reg.body);
    const id = reg.json().data.id;
    assert.equal((await post('/api/auth/register', { email: email.toUpperCase(), password, first_name: 'A', last_name: 'B', account_type: 'B' })).statusCode, 409);

    const before = await post('/api/auth/login', { email, password });
    assert.equal(before.statusCode, 403);
    assert.equal(before.json().code, 'EMAIL_NOT_VERIFIED');

    const mail = await smtp.waitFor(email, (m) => /confirm/i.test(m.subject));
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token, mail.text);
    const [stored] = await rows<{ token_hash: string }>(sql`select token_hash from customer_auth_tokens where customer_id = ${id}`);
    assert.notEqual(stored!.token_hash, token, 'only a hash is stored');
    assert.equal((await post('/api/auth/register/verify', { token: token + 'x' })).statusCode, 400);
    assert.equal((await post('/api/auth/register/verify', { token })).statusCode, 200);
    const again = await post('/api/auth/register/verify', { token });
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().code, 'INVALID_TOKEN');

    const cookie = await loginCustomer(t, email, password);

    // 2FA management needs a sudo token
    for (const headers of [{ cookie }, { cookie, 'x-access-token': 'garbage' }] as Record<string, string>[]) {
      const res = await post('/api/auth/profile/2fa/generate-code', undefined, headers);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'SUDO_REQUIRED');
    }
    const wrongSudo = await post('/api/auth/profile/sudo', { password: 'Wr0ng!Password' }, { cookie });
    assert.equal(wrongSudo.statusCode, 400);
    const sudoRes = await post('/api/auth/profile/sudo', { password }, { cookie });
    assert.equal(sudoRes.statusCode, 200, sudoRes.body);
    const sudo = sudoRes.json().data;
    assert.ok(new Date(sudo.expires_at).getTime() - clock.now().getTime() <= 5 * 60_000);
    const withSudo = { cookie, 'x-access-token': sudo.token };

    const gen = await post('/api/auth/profile/2fa/generate-code', undefined, withSudo);
    assert.equal(gen.statusCode, 200, gen.body);
    const { secret, otpauth_url, qr_code } = gen.json().data;
    assert.match(secret, /^[A-Z2-7]+=*$/);
    assert.match(otpauth_url, /^otpauth:\/\/totp\/.*secret=/);
    assert.match(qr_code, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const [pending] = await rows<{ totp_pending_secret_enc: string; is_2fa_active: boolean }>(sql`select totp_pending_secret_enc, is_2fa_active from customers where id = ${id}`);
    assert.match(pending!.totp_pending_secret_enc, /^v1\./);
    assert.ok(!pending!.totp_pending_secret_enc.includes(secret));
    assert.equal(pending!.is_2fa_active, false);

    const bad = await post('/api/auth/profile/2fa/enable', { code: '000000' === totpCode(secret, clock.now()) ? '111111' : '000000' }, withSudo);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'INVALID_CODE');
    assert.equal((await post('/api/auth/profile/2fa/enable', { code: 'abc' }, withSudo)).statusCode, 400);
    const enable = await post('/api/auth/profile/2fa/enable', { code: nextCode(clock, secret) }, withSudo);
    assert.equal(enable.statusCode, 200, enable.body);
    const codes: string[] = enable.json().data.recovery_codes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const stored2 = await rows<{ code_hash: string; salt: string }>(sql`select code_hash, salt from customer_recovery_codes where customer_id = ${id}`);
    assert.equal(stored2.length, 10);
    assert.equal(new Set(stored2.map((r) => r.salt)).size, 10);
    assert.ok(stored2.every((r) => !codes.some((c) => r.code_hash.includes(c.replace('-', '')))));

    assert.equal((await post('/api/auth/logout', undefined, { cookie })).statusCode, 200);

    const challenge = await challengeFor(email, password);
    const code = nextCode(clock, secret);
    // no challenge cookie: a code alone never logs in
    assert.equal((await post('/api/auth/2fa/verify-code', { email, code })).statusCode, 401);
    // an e-mail other than the challenge's
    assert.equal((await post('/api/auth/2fa/verify-code', { email: 'other@example.test', code }, { cookie: challenge })).statusCode, 400);
    const ok = await post('/api/auth/2fa/verify-code', { email, code }, { cookie: challenge });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json().data, { redirect: 'DASHBOARD' });
    const full = cookiesOf(ok);
    assert.ok(full.access_token && full.refresh_token);
    assert.equal(full.mfa_challenge, '');
    assert.equal((await sessions(cookieHeader(full))).statusCode, 200);
    // the challenge is spent
    assert.equal((await post('/api/auth/2fa/verify-code', { email, code: nextCode(clock, secret) }, { cookie: challenge })).statusCode, 401);
  });
});

describe('TOTP codes', () => {
  test('a wrong, malformed or replayed code is a 400; five wrong codes void the challenge', async () => {
    const c = await createCustomer(t);
    const { secret } = await enable2fa(t, clock, c.id);
    const used = totpCode(secret, clock.now()); // spent by enable
    let challenge = await challengeFor(c.email, c.password);
    for (const code of [used, '12345', 'abcdef', '1234567']) {
      const res = await post('/api/auth/2fa/verify-code', { email: c.email, code }, { cookie: challenge });
      assert.equal(res.statusCode, 400, code);
      assert.equal(res.json().code, 'INVALID_CODE');
    }
    challenge = await challengeFor(c.email, c.password);
    const good = nextCode(clock, secret);
    for (let i = 0; i < 5; i++) {
      const wrong = String((Number(good) + 1 + i) % 1_000_000).padStart(6, '0');
      assert.equal((await post('/api/auth/2fa/verify-code', { email: c.email, code: wrong }, { cookie: challenge })).statusCode, 400);
    }
    assert.equal((await post('/api/auth/2fa/verify-code', { email: c.email, code: good }, { cookie: challenge })).statusCode, 401);
    // a fresh login still works with that code's step unspent
    challenge = await challengeFor(c.email, c.password);
    assert.equal((await post('/api/auth/2fa/verify-code', { email: c.email, code: good }, { cookie: challenge })).statusCode, 200);
  });

  test('20 parallel submissions of one valid code: exactly one succeeds', async () => {
    const c = await createCustomer(t);
    const { secret } = await enable2fa(t, clock, c.id);
    const challenges = await Promise.all(Array.from({ length: 4 }, () => challengeFor(c.email, c.password)));
    const code = nextCode(clock, secret);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/auth/2fa/verify-code', { email: c.email, code }, { cookie: challenges[i % 4]! })),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1, results.map((r) => r.statusCode).join(','));
    assert.ok(results.every((r) => r.statusCode === 200 || r.statusCode === 400 || r.statusCode === 401));
    const [n] = await rows<{ n: number }>(sql`select count(*)::int as n from customer_sessions where customer_id = ${c.id}`);
    assert.equal(n!.n, 1);
  });
});

describe('recovery codes', () => {
  test('a recovery code logs in once; the list shows hints; regenerate voids the old set', async () => {
    const c = await createCustomer(t);
    const { secret, recoveryCodes } = await enable2fa(t, clock, c.id);

    let challenge = await challengeFor(c.email, c.password);
    const first = await post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: recoveryCodes[0] }, { cookie: challenge });
    assert.equal(first.statusCode, 200, first.body);
    const cookie = cookieHeader(cookiesOf(first));

    challenge = await challengeFor(c.email, c.password);
    for (const code of [recoveryCodes[0], 'not-a-code', 'zzzzz-zzzzz']) {
      const res = await post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: code }, { cookie: challenge });
      assert.equal(res.statusCode, 400, code);
      assert.equal(res.json().code, 'INVALID_CODE');
    }
    // the spec's other field name
    const alias = await post('/api/auth/2fa/verify-recovery', { email: c.email, code: recoveryCodes[1]!.toUpperCase() }, { cookie: challenge });
    assert.equal(alias.statusCode, 200, alias.body);

    // listing and regenerating need sudo (password + TOTP while 2FA is on)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/profile/2fa/recovery', headers: { cookie } })).statusCode, 403);
    assert.equal((await post('/api/auth/profile/sudo', { password: c.password }, { cookie })).statusCode, 400);
    const sudo = (await post('/api/auth/profile/sudo', { password: c.password, code: nextCode(clock, secret) }, { cookie })).json().data.token;
    const list = await t.app.inject({ method: 'GET', url: '/api/auth/profile/2fa/recovery', headers: { cookie, 'x-access-token': sudo } });
    assert.equal(list.statusCode, 200);
    const data = list.json().data;
    assert.equal(data.remaining, 8);
    assert.equal(data.codes.length, 10);
    assert.deepEqual(data.codes[0], { hint: recoveryCodes[0]!.slice(0, 3), used: true });
    assert.equal(data.codes.filter((x: any) => x.used).length, 2);
    assert.ok(!JSON.stringify(data).includes(recoveryCodes[2]!));

    const regen = await post('/api/auth/profile/2fa/recovery/regenerate', undefined, { cookie, 'x-access-token': sudo });
    assert.equal(regen.statusCode, 200);
    const fresh: string[] = regen.json().data.recovery_codes;
    assert.equal(fresh.length, 10);
    challenge = await challengeFor(c.email, c.password);
    assert.equal((await post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: recoveryCodes[2] }, { cookie: challenge })).statusCode, 400);
    assert.equal((await post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: fresh[0] }, { cookie: challenge })).statusCode, 200);
  });

  test('20 parallel submissions of one recovery code: exactly one succeeds', async () => {
    const c = await createCustomer(t);
    const { recoveryCodes } = await enable2fa(t, clock, c.id);
    const challenges = await Promise.all(Array.from({ length: 4 }, () => challengeFor(c.email, c.password)));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: recoveryCodes[3] }, { cookie: challenges[i % 4]! })),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1, results.map((r) => r.statusCode).join(','));
    const [n] = await rows<{ n: number }>(sql`select count(*)::int as n from customer_recovery_codes where customer_id = ${c.id} and used_at is not null`);
    assert.equal(n!.n, 1);
  });
});

describe('disable and force-disable', () => {
  test('disable needs sudo and a valid code; afterwards login needs no second factor', async () => {
    const c = await createCustomer(t);
    const { secret } = await enable2fa(t, clock, c.id);
    const challenge = await challengeFor(c.email, c.password);
    const cookie = cookieHeader(cookiesOf(await post('/api/auth/2fa/verify-code', { email: c.email, code: nextCode(clock, secret) }, { cookie: challenge })));
    const sudo = (await post('/api/auth/profile/sudo', { password: c.password, code: nextCode(clock, secret) }, { cookie })).json().data.token;
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: nextCode(clock, secret) }, { cookie })).statusCode, 403);
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: '99999x' }, { cookie, 'x-access-token': sudo })).statusCode, 400);
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: nextCode(clock, secret) }, { cookie, 'x-access-token': sudo })).statusCode, 200);
    assert.ok(await loginCustomer(t, c.email, c.password));
    const [row] = await rows<{ totp_secret_enc: string | null; n: number }>(
      sql`select totp_secret_enc, (select count(*)::int from customer_recovery_codes where customer_id = ${c.id}) as n from customers where id = ${c.id}`,
    );
    assert.deepEqual(row, { totp_secret_enc: null, n: 0 });
  });

  test('staff force-disable reports whether 2FA was on and voids waiting challenges', async () => {
    const c = await createCustomer(t);
    await enable2fa(t, clock, c.id);
    const challenge = await challengeFor(c.email, c.password);
    assert.deepEqual(await t.container.services.twoFactor.forceDisable(c.id), { wasActive: true });
    assert.deepEqual(await t.container.services.twoFactor.forceDisable(c.id), { wasActive: false });
    await assert.rejects(t.container.services.twoFactor.forceDisable(999999), /not found/);
    assert.equal((await post('/api/auth/2fa/verify-recovery', { email: c.email, recovery_code: 'aaaaa-aaaaa' }, { cookie: challenge })).statusCode, 401);
    assert.ok(await loginCustomer(t, c.email, c.password));
  });
});

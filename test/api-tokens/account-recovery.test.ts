import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { cookieHeader, cookiesOf, customerSession, loginCustomer } from '../helpers/customers.js';
import { client } from '../helpers/http.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { enable2fa } from '../helpers/two-factor.js';

/*
 * What a person taking back a stolen account expects of its API tokens: a recovery (reset by mail,
 * support's 2FA reset) and staff's deactivation end them with the sessions; a change the owner makes
 * signed in keeps them and says which still work; one call revokes them all; every new one is mailed.
 */

const DAY = 24 * 3600_000;
let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock(new Date());

before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start(), FRONTEND_URL: 'https://app.example.test' } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

type Session = Awaited<ReturnType<typeof customerSession>>;

const { post } = client(() => t);
const sessionAlive = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } })).statusCode === 200;

async function newToken(s: Session, name: string, scopes: string[] = ['account:*'], extra: object = {}): Promise<{ id: number; token: string; prefix: string }> {
  const sudo = await post('/api/auth/profile/sudo', { password: s.password }, s.cookie);
  assert.equal(sudo.statusCode, 200, sudo.body);
  const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo.json().data.token }, payload: { name, scopes, ...extra } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

/** Moves the token's expiry into the past (the session's clock stays where it is). */
async function expired(token: { id: number }): Promise<void> {
  await t.container.db.execute(sql`update api_tokens set expires_at = ${new Date(clock.now().getTime() - 60_000).toISOString()}::timestamptz where id = ${token.id}`);
}

/** A read and a write made with the token: both 200 while it lives, both 401 once it is revoked. */
async function tokenWorks(token: string): Promise<boolean> {
  const read = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: `Bearer ${token}` } });
  const write = await t.app.inject({
    method: 'PATCH',
    url: '/api/customer/profile/notification-setting',
    headers: { authorization: `Bearer ${token}` },
    payload: { allow_marketing_email: false, allow_billing_reminder: true },
  });
  assert.equal(read.statusCode, write.statusCode, `read ${read.statusCode} ${read.body}, write ${write.statusCode} ${write.body}`);
  if (read.statusCode === 401) return false;
  assert.equal(read.statusCode, 200, read.body);
  return true;
}

const states = async (s: Session) =>
  Object.fromEntries(((await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: s.cookie } })).json().data as { name: string; state: string }[]).map((x) => [x.name, x.state]));

const mailTo = (email: string, subject: RegExp, after = 0) => smtp.waitFor(email, (m) => subject.test(m.subject) && smtp.mails.indexOf(m) >= after);

/**
 * The notice a change wrote to the outbox in its own transaction (read there, not at the SMTP
 * server, so the answer alone tells it was committed with the change).
 */
async function notice(email: string, template: string): Promise<{ subject: string; text: string; html: string }> {
  const rows = await queryRows<{ subject: string; text_body: string; html_body: string }>(
    t.container.db,
    sql`select subject, text_body, html_body from mail_outbox where to_address = ${email} and template = ${template} order by id desc limit 1`,
  );
  assert.ok(rows[0], `no ${template} mail to ${email}`);
  return { subject: rows[0].subject, text: rows[0].text_body, html: rows[0].html_body };
}

async function resetLink(email: string): Promise<string> {
  const mark = smtp.mails.length;
  assert.equal((await post('/api/auth/password/forgot', { email })).statusCode, 200);
  const mail = await mailTo(email, /reset your password/i, mark);
  return /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
}

describe('a new token is mailed to its owner', () => {
  test('with its name, prefix, scopes, expiry and how to revoke it; never the secret', async () => {
    const s = await customerSession(t);
    const created = await newToken(s, 'deploy bot', ['compute:read', 'network:*'], { expires_in_days: 7 });
    const mail = await notice(s.email, 'api-token-created');
    assert.match(mail.subject, /new API token/i);
    assert.match(mail.text, /Name: deploy bot/);
    assert.ok(mail.text.includes(created.prefix), mail.text);
    assert.match(mail.text, /Scopes: compute:read, network:\*/);
    const expires = new Date(clock.now().getTime() + 7 * DAY).toISOString().slice(0, 16).replace('T', ' ');
    assert.ok(mail.text.includes(`Expires: ${expires} UTC`), mail.text);
    assert.ok(mail.text.includes('https://app.example.test/account'), mail.text);
    assert.match(mail.text, /POST \/api\/tokens\/revoke-all/);
    assert.ok(!`${mail.text}${mail.html}`.includes(created.token.slice(12)), 'the mail never carries the secret');
  });
});

describe('a password reset by mail takes the account back', () => {
  test('every API token is revoked with the sessions, writes included, and the owner is told', async () => {
    const s = await customerSession(t);
    const ci = await newToken(s, 'ci');
    const backup = await newToken(s, 'backup', ['account:read']);
    const other = await customerSession(t);
    const othersToken = await newToken(other, 'theirs');
    assert.equal(await tokenWorks(ci.token), true);

    const token = await resetLink(s.email);
    const reset = await post('/api/auth/password/reset', { token, new_password: 'R3set!Password' });
    assert.equal(reset.statusCode, 200, reset.body);

    assert.equal(await sessionAlive(s.cookie), false);
    assert.equal(await tokenWorks(ci.token), false);
    assert.equal(await tokenWorks(backup.token), false);
    assert.equal(await tokenWorks(othersToken.token), true, "another customer's token is untouched");
    const after = { ...s, cookie: await loginCustomer(t, s.email, 'R3set!Password'), password: 'R3set!Password' };
    assert.deepEqual(await states(after), { ci: 'revoked', backup: 'revoked' });

    const told = await notice(s.email, 'password-reset-done');
    assert.match(told.subject, /password was reset/i);
    assert.match(told.text, /All 2 of your API tokens were revoked/);
    const [event] = await queryRows<{ after: { api_tokens_revoked: number; sessions_revoked: number } }>(
      t.container.db,
      sql`select after from audit_logs where action = 'customer.password_reset' and target_id = ${String(s.id)}`,
    );
    assert.equal(event!.after.api_tokens_revoked, 2);
    assert.equal(event!.after.sessions_revoked, 1);
  });
});

describe('a change the signed-in owner makes keeps the tokens and says so', () => {
  test('password change: the notice lists the tokens that still work and how to revoke them all', async () => {
    const s = await customerSession(t);
    const ci = await newToken(s, 'ci runner');
    await expired(await newToken(s, 'old one', ['account:read']));
    assert.equal((await post('/api/auth/password/change', { current_password: s.password, new_password: 'N3w!Password' }, s.cookie)).statusCode, 200);
    const told = await notice(s.email, 'password-changed');
    assert.match(told.text, /This API token still works/);
    assert.ok(told.text.includes(`ci runner (${ci.prefix}`), told.text);
    assert.ok(!told.text.includes('old one'), 'an expired token is not listed');
    assert.match(told.text, /Revoke all/);
    assert.match(told.text, /POST \/api\/tokens\/revoke-all/);
    assert.equal(await tokenWorks(ci.token), true, 'scripts keep running after a routine password change');
  });

  test('e-mail change: the notice to the old address lists the tokens too', async () => {
    const s = await customerSession(t);
    const ci = await newToken(s, 'nightly');
    const mark = smtp.mails.length;
    assert.equal((await post('/api/auth/profile/change-email/request', undefined, s.cookie)).statusCode, 200);
    const code = /code to .* is (\d{6})/.exec((await mailTo(s.email, /verification code/i, mark)).text)![1]!;
    const verify = await post('/api/auth/profile/change-email/verify-old', { code }, s.cookie);
    assert.equal(verify.statusCode, 200, verify.body);
    const newEmail = `moved-${s.id}@example.test`;
    assert.equal((await post('/api/auth/profile/change-email/send-new', { token: verify.json().data.token, new_email: newEmail }, s.cookie)).statusCode, 200);
    const link = /token=([A-Za-z0-9_-]+)/.exec((await mailTo(newEmail, /confirm your new/i)).text)![1]!;
    const confirm = await post('/api/auth/profile/change-email/confirm-new', { token: link }, s.cookie);
    assert.equal(confirm.statusCode, 200, confirm.body);
    const told = await notice(s.email, 'email-changed');
    assert.ok(told.text.includes(`nightly (${ci.prefix}`), told.text);
    assert.match(told.text, /POST \/api\/tokens\/revoke-all/);
    assert.equal(await tokenWorks(ci.token), true);
  });
});

describe('revoke all (POST /api/tokens/revoke-all)', () => {
  test('revokes every active token of the caller at once, and only those', async () => {
    const s = await customerSession(t);
    const a = await newToken(s, 'a');
    const b = await newToken(s, 'b', ['account:read']);
    const gone = await newToken(s, 'gone');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${gone.id}`, headers: { cookie: s.cookie } })).statusCode, 200);
    await expired(await newToken(s, 'short', ['account:read']));
    const other = await customerSession(t);
    const theirs = await newToken(other, 'theirs');

    const byToken = await t.app.inject({ method: 'POST', url: '/api/tokens/revoke-all', headers: { authorization: `Bearer ${a.token}` } });
    assert.equal(byToken.statusCode, 403, 'a token cannot reach the token routes');
    assert.equal(byToken.json().code, 'TOKEN_NOT_ALLOWED');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/tokens/revoke-all' })).statusCode, 401);

    const res = await post('/api/tokens/revoke-all', undefined, s.cookie);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { revoked: 2 });
    assert.equal(await tokenWorks(a.token), false);
    assert.equal(await tokenWorks(b.token), false);
    assert.equal(await tokenWorks(theirs.token), true);
    assert.deepEqual(await states(s), { a: 'revoked', b: 'revoked', gone: 'revoked', short: 'expired' });
    assert.equal(await sessionAlive(s.cookie), true, 'the session that asked stays');

    const again = await post('/api/tokens/revoke-all', undefined, s.cookie);
    assert.deepEqual(again.json().data, { revoked: 0 });
    const entries = await queryRows<{ actor_id: number }>(t.container.db, sql`select actor_id from audit_logs where action = 'api_token.revoked_all' and actor_id = ${s.id}`);
    assert.equal(entries.length, 2, 'each call is in the activity log');
  });
});

describe('deactivation ends every way in for good', () => {
  const patch = (cookie: string, id: number, is_active: boolean) =>
    t.app.inject({ method: 'PATCH', url: `/api/backoffice/customer/${id}`, headers: { cookie }, payload: { is_active } });

  test('reactivating revives no session, refresh cookie, API token or mailed link', async () => {
    const staff = await adminSession(t, { permissions: ['edit_users', 'view_users'] });
    const s = await customerSession(t);
    const login = await post('/api/auth/login', { email: s.email, password: s.password });
    const refreshOnly = cookieHeader({ refresh_token: cookiesOf(login).refresh_token });
    const ci = await newToken(s, 'ci');
    const link = await resetLink(s.email);

    assert.equal((await patch(staff.cookie, s.id, false)).statusCode, 200);
    assert.equal(await tokenWorks(ci.token), false);
    assert.equal((await patch(staff.cookie, s.id, true)).statusCode, 200);

    assert.equal(await sessionAlive(s.cookie), false, 'the old session stays ended');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: refreshOnly } })).statusCode, 401);
    assert.equal(await tokenWorks(ci.token), false, 'the old token stays revoked');
    const reset = await post('/api/auth/password/reset', { token: link, new_password: 'R3set!Password' });
    assert.equal(reset.statusCode, 400, 'a link mailed before the deactivation is void');
    const back = await loginCustomer(t, s.email, s.password);
    assert.deepEqual(await states({ ...s, cookie: back }), { ci: 'revoked' });

    const [audit] = await queryRows<{ after: Record<string, unknown> }>(
      t.container.db,
      sql`select after from audit_logs where action = 'customer.updated' and target_id = ${String(s.id)} order by id limit 1`,
    );
    assert.equal(audit!.after.is_active, false);
    assert.equal(audit!.after.api_tokens_revoked, 1);
    assert.equal(audit!.after.sessions_revoked, 2);
  });

  test('an account switched off before this rule (sessions only refused) revives nothing either', async () => {
    const staff = await adminSession(t, { permissions: ['edit_users'] });
    const s = await customerSession(t);
    const ci = await newToken(s, 'ci');
    await t.container.db.execute(sql`update customers set is_active = false where id = ${s.id}`);
    assert.equal((await patch(staff.cookie, s.id, true)).statusCode, 200);
    assert.equal(await sessionAlive(s.cookie), false);
    assert.equal(await tokenWorks(ci.token), false);
  });
});

describe("support's reset of a customer's 2FA is a recovery too", () => {
  test('every session and API token ends, and the mail says so', async () => {
    const staff = await adminSession(t, { permissions: ['manage_2fa'] });
    const s = await customerSession(t);
    const ci = await newToken(s, 'ci');
    await enable2fa(t, clock, s.id);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/backoffice/2fa/force-disable',
      headers: { cookie: staff.cookie },
      payload: { customer_id: s.id, reason: 'lost phone, identity checked by video call' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await sessionAlive(s.cookie), false);
    assert.equal(await tokenWorks(ci.token), false);
    assert.match((await notice(s.email, '2fa_force_disabled')).text, /every API token of the account was revoked/);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { ManualClock } from '../../src/platform/clock.js';
import { enforceSecurityAudit, SecurityEvents } from '../../src/modules/auth/security-events.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { cookieHeader, cookiesOf, createCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { nextCode } from '../helpers/two-factor.js';
import { client } from '../helpers/http.js';

let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock();
let staff: { cookie: string };
before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start(), FRONTEND_URL: 'https://app.example.test' } });
  staff = await adminSession(t);
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const UA = 'security-audit-test/1.0';
const { post } = client(() => t, () => ({ headers: { 'user-agent': UA } }));

/** The customer's entries as staff see them through the audit endpoint. */
async function entriesOf(customerId: number) {
  const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/audit-logs?target_type=customer&limit=100', headers: { cookie: staff.cookie } });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json().data as any[]).filter((e) => e.target_id === String(customerId));
}

describe('customer security events reach the audit log', () => {
  test('login (failed and right), sudo, 2FA on/regenerate/off, password change and reset, e-mail change, logout', async () => {
    const c = await createCustomer(t);
    assert.equal((await post('/api/auth/login', { email: c.email, password: 'Wr0ng!pass' })).statusCode, 401);
    const login = await post('/api/auth/login', { email: c.email, password: c.password });
    assert.equal(login.statusCode, 200);
    let cookie = cookieHeader(cookiesOf(login));

    const sudo = async () => {
      const r = await post('/api/auth/profile/sudo', { password: c.password }, { cookie });
      assert.equal(r.statusCode, 200, r.body);
      return { cookie, 'x-access-token': r.json().data.token as string };
    };
    let h = await sudo();
    const secret = (await post('/api/auth/profile/2fa/generate-code', undefined, h)).json().data.secret as string;
    assert.equal((await post('/api/auth/profile/2fa/enable', { code: nextCode(clock, secret) }, h)).statusCode, 200);
    assert.equal((await post('/api/auth/profile/2fa/recovery/regenerate', undefined, h)).statusCode, 200);
    assert.equal((await post('/api/auth/profile/2fa/disable', { code: nextCode(clock, secret) }, h)).statusCode, 200);
    h = await sudo();

    const newPassword = 'N3w!Password';
    assert.equal((await post('/api/auth/password/change', { current_password: c.password, new_password: newPassword }, { cookie })).statusCode, 200);

    let mark = smtp.mails.length;
    assert.equal((await post('/api/auth/password/forgot', { email: c.email })).statusCode, 200);
    const resetMail = await smtp.waitFor(c.email, (m) => /reset/i.test(m.subject) && smtp.mails.indexOf(m) >= mark);
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;
    assert.equal((await post('/api/auth/password/reset', { token: resetToken, new_password: 'R3set!Password' })).statusCode, 200);
    cookie = cookieHeader(cookiesOf(await post('/api/auth/login', { email: c.email, password: 'R3set!Password' })));

    mark = smtp.mails.length;
    assert.equal((await post('/api/auth/profile/change-email/request', undefined, { cookie })).statusCode, 200);
    const otpMail = await smtp.waitFor(c.email, (m) => /verification code/i.test(m.subject) && smtp.mails.indexOf(m) >= mark);
    const otp = /code to .* is (\d{6})/.exec(otpMail.text)![1]!;
    const step = (await post('/api/auth/profile/change-email/verify-old', { code: otp }, { cookie })).json().data.token;
    const newEmail = `moved-${c.id}@example.test`;
    assert.equal((await post('/api/auth/profile/change-email/send-new', { token: step, new_email: newEmail }, { cookie })).statusCode, 200);
    const link = await smtp.waitFor(newEmail, (m) => /confirm your new/i.test(m.subject));
    const linkToken = new URL(/(https:\/\/app\.example\.test\/\S+)/.exec(link.text)![1]!).searchParams.get('token')!;
    const confirmed = await post('/api/auth/profile/change-email/confirm-new', { token: linkToken }, { cookie });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    cookie = cookieHeader(cookiesOf(confirmed));
    assert.equal((await post('/api/auth/logout', undefined, { cookie })).statusCode, 200);

    const entries = await entriesOf(c.id);
    const actions = entries.map((e) => e.action);
    for (const action of [
      'customer.login_failed',
      'customer.login',
      'customer.sudo_granted',
      'customer.2fa_enabled',
      'customer.recovery_codes_regenerated',
      'customer.2fa_disabled',
      'customer.password_changed',
      'customer.password_reset',
      'customer.email_change_requested',
      'customer.email_changed',
      'customer.logout',
    ]) {
      const e = entries.find((x) => x.action === action);
      assert.ok(e, `no ${action} entry; got ${actions.join(', ')}`);
      assert.equal(e.ip, '127.0.0.1', action);
      assert.equal(e.user_agent, UA, action);
      if (action !== 'customer.login_failed' && action !== 'customer.password_reset') assert.equal(e.actor_id, c.id, action);
    }
    const changed = entries.find((x) => x.action === 'customer.email_changed');
    assert.equal(changed.after.after, newEmail);
    // nothing secret is kept
    const text = JSON.stringify(entries);
    for (const secret of [c.password, newPassword, 'R3set!Password', resetToken, otp, linkToken]) assert.ok(!text.includes(secret), 'a secret reached the audit log');
  });

  test('an unknown e-mail failing to log in is recorded too, without a target', async () => {
    const email = `ghost-${Date.now()}@example.test`;
    assert.equal((await post('/api/auth/login', { email, password: 'Wr0ng!pass' })).statusCode, 401);
    const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/audit-logs?action=customer.login_failed&limit=100', headers: { cookie: staff.cookie } });
    const e = (res.json().data as any[]).find((x) => x.after?.email === email);
    assert.ok(e);
    assert.equal(e.target_id, null);
    assert.equal(e.actor_type, 'anonymous');
  });
});

describe('the auth routes enforce it', () => {
  test('a write route that names no security event refuses to start', async () => {
    const app = Fastify();
    app.register(async (scope) => {
      enforceSecurityAudit(scope, new SecurityEvents(t.container.db, t.container.services.audit));
      scope.post('/api/auth/new-thing', async () => ({ ok: true }));
    });
    await assert.rejects(async () => {
      await app.ready();
    }, /declares no config.securityEvent/);
    await app.close().catch(() => undefined);
  });

  test('a signed-in route whose service forgot to record still leaves its entry', async () => {
    const app = Fastify();
    const events = new SecurityEvents(t.container.db, t.container.services.audit);
    const c = await createCustomer(t);
    await app.register(async (scope) => {
      scope.addHook('onRequest', async (req) => {
        req.customer = { kind: 'customer', customerId: c.id, sessionId: '00000000-0000-0000-0000-000000000000' };
      });
      enforceSecurityAudit(scope, events);
      scope.post('/api/auth/forgetful', { config: { securityEvent: 'customer.password_changed' } }, async () => ({ ok: true }));
    });
    assert.equal((await app.inject({ method: 'POST', url: '/api/auth/forgetful' })).statusCode, 200);
    const entries = await entriesOf(c.id);
    assert.ok(entries.some((e) => e.action === 'customer.password_changed'), JSON.stringify(entries));
    await app.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { cookiesOf, createCustomer, customerSession, loginCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { enable2fa } from '../helpers/two-factor.js';

let t: TestApp;
const clock = new ManualClock();
const smtp = new TestSmtpServer();
let support: { cookie: string; id: number };
let admin: { cookie: string; id: number };

before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start() } });
  support = await adminSession(t, { role: 'Admin Support' });
  admin = await adminSession(t, { role: 'Admin' });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const bo = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
const inf = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } });
const lastAudit = async (action: string) =>
  (await queryRows<{ actor_id: number; target_id: string; before: any; after: any }>(t.container.db, sql`select * from audit_logs where action = ${action} order by id desc limit 1`))[0];

describe('customer administration', () => {
  test('list with search and pagination; detail; unknown id 404', async () => {
    const c = await createCustomer(t, { email: 'findme-unique@example.test', firstName: 'Findable' });
    await createCustomer(t);
    const list = await bo('GET', '/customer?page=1&limit=1', support.cookie);
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().data.length, 1);
    assert.ok(list.json().meta.total >= 2);
    const found = (await bo('GET', '/customer?search=findme-unique', support.cookie)).json();
    assert.deepEqual(found.data.map((x: any) => x.id), [c.id]);
    assert.ok(!JSON.stringify(found).includes('password'));
    const detail = await bo('GET', `/customer/${c.id}`, support.cookie);
    assert.equal(detail.json().data.email, c.email);
    assert.equal(detail.json().data.max_session, 5);
    assert.equal((await bo('GET', '/customer/999999', support.cookie)).statusCode, 404);
  });

  test('PATCH changes the given fields and audits before/after; support (no edit_users) gets 403', async () => {
    const c = await createCustomer(t);
    const res = await bo('PATCH', `/customer/${c.id}`, admin.cookie, { vm_limit: 25, billing_type: 'POSTPAID', is_identity_verified: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.vm_limit, 25);
    assert.equal(res.json().data.billing_type, 'POSTPAID');
    const entry = await lastAudit('customer.updated');
    assert.equal(entry!.actor_id, admin.id);
    assert.deepEqual(entry!.before, { vm_limit: 10, billing_type: 'PREPAID', is_identity_verified: false });
    assert.deepEqual(entry!.after, { vm_limit: 25, billing_type: 'POSTPAID', is_identity_verified: true });
    assert.equal((await bo('PATCH', `/customer/${c.id}`, admin.cookie, { vm_limit: -1 })).statusCode, 400);
    assert.equal((await bo('PATCH', `/customer/${c.id}`, admin.cookie, { email: 'x@y.z' })).statusCode, 400);
    assert.equal((await bo('PATCH', `/customer/${c.id}`, admin.cookie, {})).statusCode, 400);
    assert.equal((await bo('PATCH', `/customer/${c.id}`, support.cookie, { vm_limit: 1 })).statusCode, 403);
    assert.equal((await bo('PATCH', '/customer/999999', admin.cookie, { vm_limit: 1 })).statusCode, 404);
  });
});

describe('device sessions', () => {
  test('list, revoke one (its next request is 401), revoke all; audited', async () => {
    const c = await createCustomer(t);
    const one = await loginCustomer(t, c.email, c.password);
    const two = await loginCustomer(t, c.email, c.password);
    const list = await bo('GET', `/customer/${c.id}/device-sessions`, support.cookie);
    assert.equal(list.statusCode, 200);
    const sessions = list.json().data;
    assert.equal(sessions.length, 2);
    assert.deepEqual(Object.keys(sessions[0]).sort(), ['created_at', 'id', 'impersonated', 'ip', 'last_access_at', 'user_agent']);
    const target = sessions[0];
    const del = await bo('DELETE', `/customer/${c.id}/device-sessions/${target.id}`, support.cookie);
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().data.revoked, 1);
    const statuses = [(await inf(one)).statusCode, (await inf(two)).statusCode].sort();
    assert.deepEqual(statuses, [200, 401], 'exactly the revoked session fails at its next request');
    assert.equal((await bo('DELETE', `/customer/${c.id}/device-sessions/${target.id}`, support.cookie)).statusCode, 404);
    // another customer's session id is a 404 for this customer
    const other = await customerSession(t);
    const otherSid = (await bo('GET', `/customer/${other.id}/device-sessions`, support.cookie)).json().data[0].id;
    assert.equal((await bo('DELETE', `/customer/${c.id}/device-sessions/${otherSid}`, support.cookie)).statusCode, 404);
    assert.equal((await inf(other.cookie)).statusCode, 200);

    const all = await bo('DELETE', `/customer/${c.id}/device-sessions/all`, support.cookie);
    assert.equal(all.json().data.revoked, 1);
    assert.equal((await inf(one)).statusCode, 401);
    assert.equal((await inf(two)).statusCode, 401);
    const entry = await lastAudit('customer.sessions_revoked');
    assert.deepEqual(entry!.after, { session: 'all', revoked: 1 });
    assert.equal(entry!.actor_id, support.id);
    assert.equal((await bo('GET', '/customer/999999/device-sessions', support.cookie)).statusCode, 404);
  });

  test('max_session: lowering it ends the least recently used sessions at once; audited; bad values 400', async () => {
    const c = await createCustomer(t);
    const cookies = [];
    for (let i = 0; i < 3; i++) {
      cookies.push(await loginCustomer(t, c.email, c.password));
      clock.advance(1000);
    }
    const res = await bo('PATCH', '/auth/device-session/update', support.cookie, { customer_id: c.id, max_session: 1 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { customer_id: c.id, max_session: 1, sessions_revoked: 2 });
    assert.equal((await bo('GET', `/customer/${c.id}/device-sessions`, support.cookie)).json().data.length, 1);
    assert.equal((await inf(cookies[2]!)).statusCode, 200, 'the most recent one stays');
    assert.equal((await inf(cookies[0]!)).statusCode, 401);
    const entry = await lastAudit('customer.max_session_changed');
    assert.deepEqual(entry!.before, { max_session: 5 });
    assert.deepEqual(entry!.after, { max_session: 1, sessions_revoked: 2 });
    for (const bad of [0, 101, 'x']) {
      assert.equal((await bo('PATCH', '/auth/device-session/update', support.cookie, { customer_id: c.id, max_session: bad } as any)).statusCode, 400);
    }
    assert.equal((await bo('PATCH', '/auth/device-session/update', support.cookie, { customer_id: 999999, max_session: 2 })).statusCode, 404);
  });
});

describe('2FA force-disable', () => {
  test('switches 2FA off, keeps the reason in the audit log, e-mails the customer; 409 when already off', async () => {
    const c = await createCustomer(t);
    await enable2fa(t, clock, c.id);
    const before = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } });
    assert.equal(before.json().data.redirect, '2FA');

    const res = await bo('PATCH', '/2fa/force-disable', admin.cookie, { customer_id: c.id, reason: 'Lost phone, identity checked by call' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { customer_id: c.id, is_2fa_active: false });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } });
    assert.equal(login.json().data.redirect, 'DASHBOARD');
    assert.ok(cookiesOf(login).access_token);
    const entry = await lastAudit('customer.2fa_force_disabled');
    assert.equal(entry!.after.reason, 'Lost phone, identity checked by call');
    assert.equal(entry!.actor_id, admin.id);
    const mail = await smtp.waitFor(c.email, (m) => /turned off/i.test(m.subject));
    assert.match(mail.text, /Lost phone, identity checked by call/);

    const again = await bo('PATCH', '/2fa/force-disable', admin.cookie, { customer_id: c.id, reason: 'again please' });
    assert.equal(again.statusCode, 409);
    assert.equal((await bo('PATCH', '/2fa/force-disable', admin.cookie, { customer_id: c.id })).statusCode, 400, 'reason is required');
    assert.equal((await bo('PATCH', '/2fa/force-disable', admin.cookie, { customer_id: 999999, reason: 'nobody here' })).statusCode, 404);
    assert.equal((await bo('PATCH', '/2fa/force-disable', support.cookie, { customer_id: c.id, reason: 'not allowed' })).statusCode, 403);
  });
});

describe('impersonation', () => {
  test('Admin Support opens a customer session marked with the admin; every request in it is audited', async () => {
    const c = await createCustomer(t);
    const res = await bo('POST', `/customer/${c.id}/impersonate`, support.cookie);
    assert.equal(res.statusCode, 200, res.body);
    const cookies = cookiesOf(res);
    assert.ok(cookies.access_token && cookies.refresh_token);
    const cookie = `access_token=${cookies.access_token}`;
    const me = await inf(cookie);
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().data.id, c.id);
    const started = await lastAudit('customer.impersonation_started');
    assert.equal(started!.actor_id, support.id);
    assert.equal(started!.target_id, String(c.id));
    const logged = await queryRows<{ actor_type: string; actor_id: number; impersonator_admin_id: number; after: any }>(
      t.container.db,
      sql`select actor_type, actor_id, impersonator_admin_id, after from audit_logs where action = 'impersonation.request' and target_id = ${String(c.id)}`,
    );
    assert.equal(logged.length, 1);
    assert.deepEqual(
      { ...logged[0], after: { method: logged[0]!.after.method, route: logged[0]!.after.route, status: logged[0]!.after.status } },
      { actor_type: 'customer', actor_id: c.id, impersonator_admin_id: support.id, after: { method: 'GET', route: '/api/inf', status: 200 } },
    );
    const sessions = (await bo('GET', `/customer/${c.id}/device-sessions`, support.cookie)).json().data;
    assert.ok(sessions.some((s: any) => s.impersonated));
    assert.equal((await bo('POST', '/customer/999999/impersonate', support.cookie)).statusCode, 404);
    // an ordinary session is not audited request by request
    const own = await loginCustomer(t, c.email, c.password);
    await inf(own);
    const after = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'impersonation.request'`);
    assert.equal(after[0]!.n, 1);
  });

  test('without impersonate_user → 403 and no session is opened', async () => {
    const c = await createCustomer(t);
    const sales = await adminSession(t, { role: 'Admin Sales' });
    const res = await bo('POST', `/customer/${c.id}/impersonate`, sales.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.cookies.length, 0);
    assert.equal((await bo('GET', `/customer/${c.id}/device-sessions`, support.cookie)).json().data.length, 0);
  });

  test('a deactivated customer cannot be impersonated: 409 CUSTOMER_INACTIVE, no session, no audit entry of a start', async () => {
    const c = await createCustomer(t, { isActive: false });
    const before = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'customer.impersonation_started'`))[0]!.n;
    const res = await bo('POST', `/customer/${c.id}/impersonate`, support.cookie);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'CUSTOMER_INACTIVE');
    assert.equal(res.cookies.length, 0);
    const sessions = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from customer_sessions where customer_id = ${c.id}`);
    assert.equal(sessions[0]!.n, 0);
    const afterCount = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'customer.impersonation_started'`))[0]!.n;
    assert.equal(afterCount, before);
  });

  test('an admin whose role lost impersonate_user after login is refused at once (403), not at the session\'s first request', async () => {
    const c = await createCustomer(t);
    const staff = await adminSession(t, { permissions: ['impersonate_user', 'view_users'] });
    // the role changes; the admin's token still lists the permission
    await t.container.db.execute(sql`delete from role_permissions where permission = 'impersonate_user' and role_id = (select role_id from admins where id = ${staff.id})`);
    const before = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'customer.impersonation_started'`))[0]!.n;
    const res = await bo('POST', `/customer/${c.id}/impersonate`, staff.cookie);
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.cookies.length, 0);
    const sessions = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from customer_sessions where customer_id = ${c.id}`);
    assert.equal(sessions[0]!.n, 0);
    const afterCount = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'customer.impersonation_started'`))[0]!.n;
    assert.equal(afterCount, before);
  });

  // Moves the shared clock an hour on: keep it the last test of the file.
  test('an impersonated session ends one hour after it was opened, refreshed or not', async () => {
    const c = await createCustomer(t);
    const opened = await bo('POST', `/customer/${c.id}/impersonate`, support.cookie);
    assert.equal(opened.statusCode, 200, opened.body);
    const own = await loginCustomer(t, c.email, c.password);

    clock.advance(50 * 60_000);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${cookiesOf(opened).refresh_token}` } });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const refreshCookie = refreshed.cookies.find((k) => k.name === 'refresh_token');
    assert.ok(refreshCookie?.maxAge && refreshCookie.maxAge <= 600 && refreshCookie.maxAge > 540, `refresh cookie Max-Age ${refreshCookie?.maxAge}`);
    const cookie = `access_token=${cookiesOf(refreshed).access_token}`;
    assert.equal((await inf(cookie)).statusCode, 200);
    const [session] = await queryRows<{ left_s: number }>(
      t.container.db,
      sql`select extract(epoch from refresh_expires_at - created_at)::int as left_s from customer_sessions where impersonator_admin_id is not null and customer_id = ${c.id}`,
    );
    assert.ok(session!.left_s <= 3600, `the refresh expiry slid past the hour: ${session!.left_s} s`);

    clock.advance(11 * 60_000);
    const late = await inf(cookie);
    assert.equal(late.statusCode, 401, 'a live access token dies with the impersonation session');
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${cookiesOf(refreshed).refresh_token}` } });
    assert.equal(again.statusCode, 401);
    // the customer's own session is not touched by the cap
    const mine = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: own } });
    assert.equal(mine.statusCode, 200, mine.body);
  });
});

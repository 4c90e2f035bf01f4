import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, cookiesOf, createAdmin, createCustomRole, loginAdminFull } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';

let t: TestApp;
const clock = new ManualClock();
let boss: { cookie: string; id: number };
before(async () => {
  t = await buildTestApp({ clock, worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const bo = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
const inf = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } });
const customerRefresh = (refresh: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${refresh}` } });
const boRefresh = (refresh: string) => t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${refresh}` } });

/** An impersonation session opened by `staff`: its access cookie and refresh token. */
async function impersonate(staffCookie: string) {
  const c = await createCustomer(t);
  const res = await bo('POST', `/customer/${c.id}/impersonate`, staffCookie);
  assert.equal(res.statusCode, 200, res.body);
  const k = cookiesOf(res);
  const cookie = `access_token=${k.access_token}`;
  assert.equal((await inf(cookie)).statusCode, 200);
  return { cookie, refresh: k.refresh_token! };
}

describe('impersonation ends with the authority of its admin', () => {
  test('the admin is deleted: the next request and the refresh are 401', async () => {
    const staff = await adminSession(t, { role: 'Admin Support' });
    const imp = await impersonate(staff.cookie);
    assert.equal((await bo('DELETE', `/admin/${staff.id}/delete`, boss.cookie)).statusCode, 200);
    assert.equal((await inf(imp.cookie)).statusCode, 401);
    assert.equal((await customerRefresh(imp.refresh)).statusCode, 401);
  });

  test('the admin changes role (even to one that may impersonate): 401', async () => {
    const staff = await adminSession(t, { role: 'Admin Support' });
    const imp = await impersonate(staff.cookie);
    const other = await createCustomRole(t, ['impersonate_user', 'view_users']);
    assert.equal((await bo('PATCH', `/admin/${staff.id}/update-role`, boss.cookie, { role: other })).statusCode, 200);
    assert.equal((await inf(imp.cookie)).statusCode, 401);
    assert.equal((await customerRefresh(imp.refresh)).statusCode, 401);
  });

  test('the role loses impersonate_user: 401; a refresh before that still works', async () => {
    const role = await createCustomRole(t, ['impersonate_user', 'view_users']);
    const staff = await createAdmin(t, { role });
    const login = await loginAdminFull(t, staff.email, staff.password);
    const imp = await impersonate(login.cookie);
    const refreshed = await customerRefresh(imp.refresh);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const sync = await bo('POST', `/admin/roles/${encodeURIComponent(role)}/permissions`, boss.cookie, { permissions: ['view_users'] });
    assert.equal(sync.statusCode, 200, sync.body);
    assert.equal((await inf(`access_token=${cookiesOf(refreshed).access_token}`)).statusCode, 401);
    assert.equal((await customerRefresh(cookiesOf(refreshed).refresh_token!)).statusCode, 401);
  });
});

describe('backoffice sessions', () => {
  test('a refresh carries the current role and permissions: a demoted admin loses manage_balance at the next refresh', async () => {
    const role = await createCustomRole(t, ['view_users', 'manage_balance']);
    const staff = await createAdmin(t, { role });
    const login = await loginAdminFull(t, staff.email, staff.password);
    assert.equal((await bo('PATCH', `/admin/${staff.id}/update-role`, boss.cookie, { role: 'Admin Sales' })).statusCode, 200);
    const r = await boRefresh(login.refresh);
    assert.equal(r.statusCode, 200, r.body);
    const access = cookiesOf(r).bo_access_token!;
    const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString());
    assert.equal(claims.role, 'Admin Sales');
    assert.ok(!claims.perms.includes('manage_balance'), JSON.stringify(claims.perms));
  });

  // Moves the clock 12 hours: keep it last.
  test('12 hours after login the session ends, however often it was refreshed', async () => {
    const staff = await createAdmin(t, { role: 'Admin Support' });
    let refresh = (await loginAdminFull(t, staff.email, staff.password)).refresh;
    for (let hour = 1; hour <= 11; hour++) {
      clock.advance(3600_000);
      const r = await boRefresh(refresh);
      assert.equal(r.statusCode, 200, `hour ${hour}: ${r.body}`);
      const cookie = r.cookies.find((c) => c.name === 'bo_refresh_token')!;
      assert.ok(cookie.maxAge! <= (12 - hour) * 3600, `hour ${hour}: the refresh cookie outlives the session (${cookie.maxAge})`);
      refresh = cookie.value;
    }
    clock.advance(3600_000 + 1000);
    assert.equal((await boRefresh(refresh)).statusCode, 401);
  });
});

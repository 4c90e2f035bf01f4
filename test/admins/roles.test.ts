import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ALL_PERMISSIONS, BUILTIN_ROLES } from '../../src/modules/admins/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, createAdmin } from '../helpers/admins.js';
import { client } from '../helpers/http.js';

let t: TestApp;
let boss: { cookie: string; id: number };
before(async () => {
  t = await buildTestApp({ worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const { get } = client(() => t, () => ({ headers: { cookie: boss.cookie } }));
const sync = (role: string, permissions: unknown, cookie = boss.cookie) =>
  t.app.inject({ method: 'POST', url: `/api/backoffice/admin/roles/${encodeURIComponent(role)}/permissions`, headers: { cookie }, payload: { permissions } });
const assigned = async (role: string) =>
  (await get(`/api/backoffice/admin/roles/${encodeURIComponent(role)}/permissions`)).json().data.filter((p: any) => p.assigned).map((p: any) => p.name).sort();

describe('roles', () => {
  test('the five built-in roles with their permission counts; Super Admin holds the whole catalog', async () => {
    const res = await get('/api/backoffice/admin/roles');
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    for (const def of BUILTIN_ROLES) {
      const role = data.find((r: any) => r.name === def.name);
      assert.ok(role, def.name);
      assert.equal(role.permission_count, def.permissions.length);
      assert.equal(role.is_locked, def.name === 'Super Admin');
    }
    assert.equal(data.find((r: any) => r.name === 'Super Admin').permission_count, ALL_PERMISSIONS.length);
    const admin = data.find((r: any) => r.name === 'Admin');
    assert.ok(!(await assigned('Admin')).includes('manage_admins'), 'Admin makes no admin-structure changes');
    assert.ok(admin.permission_count > 20);
    assert.deepEqual(await assigned('Admin Support'), ['impersonate_user', 'manage_sessions', 'manage_tickets', 'view_compute', 'view_dashboard', 'view_tickets', 'view_users']);
  });

  test('role permissions list every catalog permission with assigned true/false; unknown role 404', async () => {
    const res = await get('/api/backoffice/admin/roles/Admin%20Sales/permissions');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.ok(Array.isArray(body.data), 'data is the list itself (docs/decisions.md §3)');
    assert.deepEqual(body.meta, { role: 'Admin Sales', locked: false });
    assert.deepEqual((await get('/api/backoffice/admin/roles/Super%20Admin/permissions')).json().meta, { role: 'Super Admin', locked: true });
    const perms = body.data;
    assert.equal(perms.length, ALL_PERMISSIONS.length);
    assert.deepEqual(Object.keys(perms[0]).sort(), ['assigned', 'description', 'name']);
    assert.equal(perms.find((p: any) => p.name === 'verify_invoices').assigned, true);
    assert.equal(perms.find((p: any) => p.name === 'manage_pricing').assigned, false);
    assert.equal((await get('/api/backoffice/admin/roles/Nope/permissions')).statusCode, 404);
  });

  test('sync replaces the set completely, is audited, and applies at the next token refresh or login', async () => {
    const member = await adminSession(t, { role: 'Admin Billing' });
    const res = await sync('Admin Billing', ['view_pricing', 'manage_pricing', 'view_audit_logs', 'view_pricing']);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.permissions, ['manage_pricing', 'view_audit_logs', 'view_pricing']);
    assert.deepEqual(await assigned('Admin Billing'), ['manage_pricing', 'view_audit_logs', 'view_pricing']);
    const [entry] = await queryRows<{ before: any; after: any }>(t.container.db, sql`select before, after from audit_logs where action = 'role.permissions_synced' order by id desc limit 1`);
    assert.ok(entry!.before.permissions.includes('manage_coupons'));
    assert.deepEqual(entry!.after.permissions, ['manage_pricing', 'view_audit_logs', 'view_pricing']);
    // the logged-in member keeps the old set until the next refresh or login
    assert.equal((await get('/api/backoffice/audit-logs', member.cookie)).statusCode, 403);
    const login = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: (member as any).email, password: (member as any).password } });
    const fresh = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    assert.equal((await get('/api/backoffice/audit-logs', fresh)).statusCode, 200);
    // an empty array removes everything
    assert.equal((await sync('Admin Billing', [])).statusCode, 200);
    assert.deepEqual(await assigned('Admin Billing'), []);
  });

  test('Super Admin is locked: syncing it is a 403 and nothing changes', async () => {
    const res = await sync('Super Admin', ['view_users']);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'ROLE_LOCKED');
    assert.equal((await assigned('Super Admin')).length, ALL_PERMISSIONS.length);
  });

  test('a non-Super-Admin holding manage_roles cannot sync (403)', async () => {
    const manager = await adminSession(t, { permissions: ['manage_roles', 'view_roles'] });
    const before = await assigned('Admin Sales');
    const res = await sync('Admin Sales', ['view_users'], manager.cookie);
    assert.equal(res.statusCode, 403);
    assert.deepEqual(await assigned('Admin Sales'), before);
  });

  test('unknown permissions are a 400 and nothing changes; unknown role 404; bad body 400', async () => {
    const before = await assigned('Admin Sales');
    const res = await sync('Admin Sales', ['view_users', 'launch_missiles']);
    assert.equal(res.statusCode, 400);
    assert.match(res.json().errors[0].message, /launch_missiles/);
    assert.deepEqual(await assigned('Admin Sales'), before);
    assert.equal((await sync('Ghost Role', ['view_users'])).statusCode, 404);
    assert.equal((await sync('Admin Sales', { view_users: true })).statusCode, 400);
  });

  test('seeding again keeps changes to built-in roles and restores nothing', async () => {
    await sync('Admin Sales', ['view_users']);
    await t.container.services.roles.seed();
    assert.deepEqual(await assigned('Admin Sales'), ['view_users']);
    const [{ n }] = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from roles where is_builtin`)) as [{ n: number }];
    assert.equal(n, 5);
  });

  test('the catalog and route map', async () => {
    const res = await get('/api/backoffice/admin/permissions');
    const { permissions, routes } = res.json().data;
    assert.deepEqual(permissions.map((p: any) => p.name), ALL_PERMISSIONS);
    assert.ok(permissions.every((p: any) => p.description.length > 10));
    assert.ok(routes.some((r: any) => r.method === 'GET' && r.url === '/api/backoffice/admin/inf' && r.permission === 'authenticated'));
  });
});

describe('OpenAPI', () => {
  test('the backoffice routes are documented with their schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const paths = res.json().paths;
    for (const p of [
      '/api/backoffice/auth/login',
      '/api/backoffice/admin',
      '/api/backoffice/admin/roles/{role_name}/permissions',
      '/api/backoffice/audit-logs',
      '/api/backoffice/setting/firewall-rule-types/{id}/update',
      '/api/backoffice/jobs/{name}/run',
    ]) {
      assert.ok(paths[p], `${p} missing from /openapi.json`);
    }
    assert.ok(paths['/api/backoffice/admin'].post.responses['201']);
  });
});

describe('admin_count of GET /api/backoffice/admin/roles', () => {
  test('each role counts its own live admins (deleted ones excluded)', async () => {
    const before = new Map<string, number>((await get('/api/backoffice/admin/roles')).json().data.map((r: any) => [r.name, r.admin_count]));
    await createAdmin(t, { role: 'Admin Billing' });
    await createAdmin(t, { role: 'Admin Billing' });
    await createAdmin(t, { role: 'Admin Billing' });
    const gone = await createAdmin(t, { role: 'Admin Sales' });
    await t.container.db.execute(sql`update admins set deleted_at = now() where id = ${gone.id}`);
    const rows = await queryRows<{ name: string; n: number }>(
      t.container.db,
      sql`select r.name, (select count(*)::int from admins a where a.role_id = r.id and a.deleted_at is null) as n from roles r`,
    );
    const res = (await get('/api/backoffice/admin/roles')).json().data;
    for (const row of rows) assert.equal(res.find((r: any) => r.name === row.name).admin_count, row.n, row.name);
    const count = (name: string) => res.find((r: any) => r.name === name).admin_count;
    assert.equal(count('Admin Billing'), (before.get('Admin Billing') ?? 0) + 3);
    assert.equal(count('Admin Sales'), before.get('Admin Sales') ?? 0);
    assert.notEqual(count('Admin Billing'), count('Admin Sales'));
  });
});

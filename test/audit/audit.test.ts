import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, createAdmin, strongPassword } from '../helpers/admins.js';
import { client } from '../helpers/http.js';

let t: TestApp;
let boss: { cookie: string; id: number };
before(async () => {
  t = await buildTestApp({ worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const { request: req } = client(() => t, () => ({ headers: { cookie: boss.cookie, 'user-agent': 'audit-test/1.0' } }));

interface Entry {
  actor_type: string;
  actor_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: any;
  after: any;
  ip: string | null;
  user_agent: string | null;
}
const latest = async (action: string) =>
  (await queryRows<Entry>(t.container.db, sql`select * from audit_logs where action = ${action} order by id desc limit 1`))[0];
const total = async () => (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs`))[0]!.n;

describe('audit entries', () => {
  test('every backoffice write records actor, action, target, before/after, ip and user agent', async () => {
    const created = await req('POST', '/api/backoffice/admin', { name: 'Audited', email: 'audited@staff.test', role: 'Admin Sales' });
    assert.equal(created.statusCode, 201);
    const id = created.json().data.id as number;
    const steps: [string, () => Promise<unknown>, string][] = [
      ['admin.created', async () => undefined, 'admin'],
      ['admin.role_changed', () => req('PATCH', `/api/backoffice/admin/${id}/update-role`, { role: 'Admin' }), 'admin'],
      ['admin.password_reset', () => req('POST', `/api/backoffice/admin/${id}/reset-password`), 'admin'],
      ['admin.deleted', () => req('DELETE', `/api/backoffice/admin/${id}/delete`), 'admin'],
      ['admin.restored', () => req('POST', `/api/backoffice/admin/${id}/restore`), 'admin'],
      ['role.permissions_synced', () => req('POST', '/api/backoffice/admin/roles/Admin%20Sales/permissions', { permissions: ['view_users'] }), 'role'],
      [
        'settings.updated',
        () =>
          req('PUT', '/api/backoffice/setting/update', {
            app_name: 'A',
            privacy_policy_url: 'https://a.test/p',
            terms_and_conditions_url: 'https://a.test/t',
            maintenance_mode: false,
          }),
        'settings',
      ],
      ['settings.colors_updated', () => req('POST', '/api/backoffice/setting/color', { primary_color: '#000000', secondary_color: '#111111', error_color: '#222222' }), 'settings'],
      ['firewall_rule_type.created', () => req('POST', '/api/backoffice/setting/firewall-rule-types/create', { name: 'RDP', protocol: 'tcp', description: '3389' }), 'firewall_rule_type'],
    ];
    for (const [action, run, targetType] of steps) {
      const res = (await run()) as { statusCode?: number; body?: string } | undefined;
      if (res) assert.ok(res.statusCode! < 300, `${action}: ${res.body}`);
      const e = await latest(action);
      assert.ok(e, `no audit entry for ${action}`);
      assert.equal(e.actor_type, 'admin', action);
      assert.equal(e.actor_id, boss.id, action);
      assert.equal(e.target_type, targetType, action);
      assert.equal(e.ip, '127.0.0.1', action);
      assert.equal(e.user_agent, 'audit-test/1.0', action);
    }
    const deleted = await latest('admin.deleted');
    assert.equal(deleted!.before.deleted, false);
    assert.equal(deleted!.after.deleted, true);
    // secrets never reach the audit log
    const all = await queryRows<{ v: string }>(t.container.db, sql`select coalesce(before::text, '') || coalesce(after::text, '') as v from audit_logs`);
    assert.ok(all.every((r) => !r.v.includes('argon2') && !/password"\s*:\s*"/.test(r.v)));
  });

  test('security events: login success and failure, logout, password change', async () => {
    const a = await createAdmin(t);
    const bad = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: 'Wrong-1234!' } });
    assert.equal(bad.statusCode, 401);
    const failed = await latest('admin.login_failed');
    assert.equal(failed!.actor_type, 'anonymous');
    assert.equal(failed!.target_id, String(a.id));
    assert.equal(failed!.after.email, a.email);
    const login = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: a.password } });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    assert.equal((await latest('admin.login'))!.actor_id, a.id);
    const next = strongPassword();
    assert.equal((await req('POST', '/api/backoffice/auth/change-password', { current_password: a.password, new_password: next }, cookie)).statusCode, 200);
    assert.equal((await latest('admin.password_changed'))!.actor_id, a.id);
    assert.equal((await req('POST', '/api/backoffice/auth/logout', undefined, cookie)).statusCode, 200);
    assert.equal((await latest('admin.logout'))!.actor_id, a.id);
  });

  test('a refused write leaves no audit entry (same transaction)', async () => {
    const before = await total();
    const dup = await req('POST', '/api/backoffice/admin', { name: 'Dup', email: 'audited@staff.test', role: 'Admin' });
    assert.equal(dup.statusCode, 409);
    const locked = await req('POST', '/api/backoffice/admin/roles/Super%20Admin/permissions', { permissions: [] });
    assert.equal(locked.statusCode, 403);
    assert.equal(await total(), before);
  });
});

describe('append-only', () => {
  test('UPDATE, DELETE and TRUNCATE on audit_logs fail at the database', async () => {
    const before = await total();
    assert.ok(before > 0);
    const refused = (err: any) => /append-only/.test(String(err?.cause?.message ?? err?.message)) && err?.cause?.code === '42501';
    await assert.rejects(t.container.db.execute(sql`update audit_logs set action = 'x'`), refused);
    await assert.rejects(t.container.db.execute(sql`delete from audit_logs`), refused);
    await assert.rejects(t.container.db.execute(sql`truncate audit_logs`), refused);
    assert.equal(await total(), before);
  });
});

describe('GET /api/backoffice/audit-logs', () => {
  test('newest first, paginated, filtered by actor_id, action and target_type', async () => {
    const page = await req('GET', '/api/backoffice/audit-logs?page=1&limit=3');
    assert.equal(page.statusCode, 200);
    const body = page.json();
    assert.equal(body.data.length, 3);
    assert.ok(body.data[0].id > body.data[1].id);
    assert.equal(body.meta.total, await total());
    const byAction = (await req('GET', '/api/backoffice/audit-logs?action=admin.restored')).json();
    assert.equal(byAction.meta.total, 1);
    assert.equal(byAction.data[0].action, 'admin.restored');
    assert.match(byAction.data[0].created_at, /Z$/);
    const byActor = (await req('GET', `/api/backoffice/audit-logs?actor_id=${boss.id}&target_type=role&limit=100`)).json();
    assert.ok(byActor.data.length >= 1);
    assert.ok(byActor.data.every((e: any) => e.actor_id === boss.id && e.target_type === 'role'));
    assert.equal((await req('GET', '/api/backoffice/audit-logs?actor_id=abc')).statusCode, 400);
    assert.equal((await req('GET', '/api/backoffice/audit-logs?limit=101')).statusCode, 400);
  });
});

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ALL_PERMISSIONS } from '../../src/modules/admins/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';

// No worker: nothing changes the database in the background while states are compared.
let t: TestApp;
let routes: { method: string; url: string; permission: string }[];
let superCookie: string;

before(async () => {
  t = await buildTestApp({ worker: false });
  superCookie = (await adminSession(t)).cookie;
  const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/admin/permissions', headers: { cookie: superCookie } });
  assert.equal(res.statusCode, 200);
  routes = res.json().data.routes;
});
after(() => t.close());

/** A concrete URL for a route pattern. */
function concrete(url: string): string {
  return url.replace(/:role_name/g, 'Admin').replace(/:name/g, 'mail.deliver').replace(/:[a-z_]+/gi, '1').replace(/\*/g, 'x');
}

function inject(route: { method: string; url: string }, cookie?: string) {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return t.app.inject({
    method: route.method as 'GET',
    url: concrete(route.url),
    headers: cookie ? { cookie } : {},
    ...(withBody ? { payload: {} } : {}),
  });
}

/** A fingerprint of everything in the public schema (sessions by count: reading them may touch last_access_at). */
async function databaseState(): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(t.container.db, sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const q =
      name === 'admin_sessions'
        ? sql`select count(*)::text || ':' || count(revoked_at)::text as v from admin_sessions`
        : sql.raw(`select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as v from "${name}" t`);
    state[name] = (await queryRows<{ v: string }>(t.container.db, q))[0]!.v;
  }
  return state;
}

describe('the backoffice route map', () => {
  test('covers every backoffice route, each with a catalog permission, public or authenticated', () => {
    assert.ok(routes.length >= 25, `only ${routes.length} routes`);
    for (const r of routes) {
      assert.ok(r.url.startsWith('/api/backoffice'), r.url);
      assert.ok(r.permission === 'public' || r.permission === 'authenticated' || (ALL_PERMISSIONS as string[]).includes(r.permission), `${r.url}: ${r.permission}`);
    }
    const find = (m: string, u: string) => routes.find((r) => r.method === m && r.url === u)?.permission;
    assert.equal(find('POST', '/api/backoffice/auth/login'), 'public');
    assert.equal(find('POST', '/api/backoffice/admin/roles/:role_name/permissions'), 'manage_roles');
    assert.equal(find('PUT', '/api/backoffice/setting/update'), 'manage_settings');
    assert.equal(find('POST', '/api/backoffice/jobs/:name/run'), 'manage_jobs');
    assert.equal(find('GET', '/api/backoffice/audit-logs'), 'view_audit_logs');
    const publicOnes = routes.filter((r) => r.permission === 'public').map((r) => r.url).sort();
    assert.deepEqual(publicOnes, ['/api/backoffice/auth/2fa/verify', '/api/backoffice/auth/login', '/api/backoffice/auth/logout', '/api/backoffice/auth/refresh', '/api/backoffice/auth/session-hint', '/api/backoffice/auth/set-password']);
  });
});

describe('permission matrix', () => {
  test('for every route, an admin whose role lacks its permission gets 403 and nothing changes', async () => {
    const guarded = routes.filter((r) => r.permission !== 'public' && r.permission !== 'authenticated');
    const byPermission = new Map<string, string>();
    for (const permission of new Set(guarded.map((r) => r.permission))) {
      const all = ALL_PERMISSIONS.filter((p) => p !== permission);
      byPermission.set(permission, (await adminSession(t, { permissions: all })).cookie);
    }
    // the state after one route is the state before the next (each is checked unchanged)
    let state = await databaseState();
    for (const route of guarded) {
      const res = await inject(route, byPermission.get(route.permission));
      assert.equal(res.statusCode, 403, `${route.method} ${route.url} → ${res.statusCode} ${res.body}`);
      assert.equal(res.json().code, 'FORBIDDEN');
      const after = await databaseState();
      assert.deepEqual(after, state, `${route.method} ${route.url} changed the database`);
      state = after;
    }
  });

  test('an admin holding only the route permission passes the permission check (not 401/403 for permission)', async () => {
    // Sanity for the matrix: the same requests with the permission are not refused by the surface.
    const guarded = routes.filter((r) => r.permission !== 'public' && r.permission !== 'authenticated' && r.method === 'GET');
    for (const route of guarded) {
      const cookie = (await adminSession(t, { permissions: [route.permission] })).cookie;
      const res = await inject(route, cookie);
      assert.ok(![401].includes(res.statusCode), `${route.method} ${route.url} → ${res.statusCode}`);
      if (res.statusCode === 403) assert.notEqual(res.json().code, 'FORBIDDEN', `${route.url}: ${res.body}`);
    }
  });

  test('every non-public route answers 401 without cookies, and nothing changes', async () => {
    let state = await databaseState();
    for (const route of routes.filter((r) => r.permission !== 'public')) {
      const res = await inject(route);
      assert.equal(res.statusCode, 401, `${route.method} ${route.url} → ${res.statusCode}`);
      assert.equal(res.json().code, 'UNAUTHENTICATED');
      const after = await databaseState();
      assert.deepEqual(after, state, `${route.method} ${route.url} changed the database`);
      state = after;
    }
  });

  test('a customer-style JWT signed with the same secret gets 401 on every non-public route', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const access = /bo_access_token=([^;]+)/.exec(superCookie)![1]!;
    const real = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString());
    const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...real, typ: 'access', sub: '1', iat: now, exp: now + 900 })}`;
    const token = `${body}.${createHmac('sha256', t.container.config.jwtSecret).update(body).digest('base64url')}`;
    for (const route of routes.filter((r) => r.permission !== 'public')) {
      for (const cookie of [`bo_access_token=${token}`, `access_token=${token}`]) {
        const res = await inject(route, cookie);
        assert.equal(res.statusCode, 401, `${route.method} ${route.url} → ${res.statusCode}`);
      }
    }
  });
});

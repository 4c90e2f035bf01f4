import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { queryRows } from '../../src/platform/db/database.js';
import { noteAuditEntry } from '../../src/platform/audit-scope.js';
import { UnauthenticatedError } from '../../src/platform/errors.js';
import { installBackofficeSurface, type RoutePermission } from '../../src/platform/http/surfaces.js';
import type { WriteAuditEntry } from '../../src/platform/http/write-audit.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';

let t: TestApp;
let boss: { cookie: string; id: number };
before(async () => {
  t = await buildTestApp({ worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const bo = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: boss.cookie }, ...(payload ? { payload } : {}) });

interface Entry {
  id: number;
  actor_type: string;
  actor_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  after: any;
}
const entriesSince = (id: number) => queryRows<Entry>(t.container.db, sql`select id, actor_type, actor_id, action, target_type, target_id, after from audit_logs where id > ${id} order by id`);
const lastId = async () => (await queryRows<{ id: number | null }>(t.container.db, sql`select max(id)::int as id from audit_logs`))[0]!.id ?? 0;

/** Runs one request and returns it with the audit entries it left. */
async function audited(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const mark = await lastId();
  const res = await bo(method, url, payload);
  return { res, entries: await entriesSince(mark) };
}

describe('every backoffice write ends with an audit entry (enforced by the surface)', () => {
  test('coupon create, patch and delete: one entry each, with the admin, the coupon and what changed', async () => {
    const created = await audited('POST', '/coupons', { code: 'AUDIT10', type: 'PERCENT', value: 10, max_bonus: 5000 });
    assert.equal(created.res.statusCode, 201, created.res.body);
    const id = created.res.json().data.id;
    assert.equal(created.entries.length, 1);
    const [c] = created.entries;
    assert.deepEqual([c!.actor_type, c!.actor_id, c!.action, c!.target_type, c!.target_id], ['admin', boss.id, 'coupon.created', 'coupon', String(id)]);
    assert.equal(c!.after.request, 'POST /api/backoffice/coupons');
    assert.equal(c!.after.body.code, 'AUDIT10');
    assert.equal(c!.after.result.code, 'AUDIT10');

    const patched = await audited('PATCH', `/coupons/${id}`, { value: 15 });
    assert.equal(patched.res.statusCode, 200, patched.res.body);
    assert.deepEqual(patched.entries.map((e) => [e.action, e.target_id, e.after.body.value, e.after.result.value]), [['coupon.updated', String(id), 15, 15]]);

    const deleted = await audited('DELETE', `/coupons/${id}`);
    assert.equal(deleted.res.statusCode, 200, deleted.res.body);
    assert.deepEqual(deleted.entries.map((e) => [e.action, e.target_type, e.target_id]), [['coupon.deleted', 'coupon', String(id)]]);
  });

  test('a per-customer minimum top-up change is audited against the customer', async () => {
    const customer = await createCustomer(t);
    const set = await audited('PUT', `/customer/${customer.id}/topup-minimum`, { minimum_amount: 75000 });
    assert.equal(set.res.statusCode, 200, set.res.body);
    assert.deepEqual(set.entries.map((e) => [e.action, e.target_type, e.target_id, e.after.body.minimum_amount]), [['customer.topup_minimum_changed', 'customer', String(customer.id), 75000]]);
    const cleared = await audited('PUT', `/customer/${customer.id}/topup-minimum`, { minimum_amount: null });
    assert.deepEqual(cleared.entries.map((e) => [e.action, e.after.body.minimum_amount]), [['customer.topup_minimum_changed', null]]);
  });

  test('a write whose service records its own entry is not recorded twice', async () => {
    const customer = await createCustomer(t);
    const adjusted = await audited('POST', `/customer/${customer.id}/balance`, { type: 'ADD', amount: 1000, description: 'goodwill' });
    assert.equal(adjusted.res.statusCode, 200, adjusted.res.body);
    assert.deepEqual(adjusted.entries.map((e) => e.action), ['wallet.balance_added']);
    const patched = await audited('PATCH', `/customer/${customer.id}`, { is_identity_verified: true });
    assert.equal(patched.res.statusCode, 200, patched.res.body);
    assert.deepEqual(patched.entries.map((e) => e.action), ['customer.updated']);
  });

  test('a write that fails leaves no entry', async () => {
    const missing = await audited('PATCH', '/coupons/999999', { value: 15 });
    assert.equal(missing.res.statusCode, 404);
    const invalid = await audited('POST', '/coupons', { code: 'X', type: 'FIXED', value: -1 });
    assert.equal(invalid.res.statusCode, 400);
    assert.deepEqual([...missing.entries, ...invalid.entries], []);
  });

  test('the route map lists the audit action of every write; only the public login routes have none', async () => {
    const routes: RoutePermission[] = (await bo('GET', '/admin/permissions')).json().data.routes;
    const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    assert.ok(writes.length >= 20);
    const unaudited = writes.filter((r) => !r.audit).map((r) => `${r.method} ${r.url} (${r.permission})`);
    assert.deepEqual(unaudited.filter((r) => !r.endsWith('(public)')), []);
    assert.deepEqual(
      unaudited.map((r) => r.split(' ')[1]).sort(),
      ['/api/backoffice/auth/2fa/verify', '/api/backoffice/auth/login', '/api/backoffice/auth/logout', '/api/backoffice/auth/refresh', '/api/backoffice/auth/set-password'],
    );
  });
});

describe('the backoffice surface, on its own', () => {
  const admin = { kind: 'admin' as const, adminId: 7, sessionId: 's', role: 'r', permissions: ['p'] };
  async function surface(routes: (app: ReturnType<typeof Fastify>) => void) {
    const app = Fastify();
    const recorded: WriteAuditEntry[] = [];
    await app.register(async (scope) => {
      installBackofficeSurface(scope, {
        authenticator: {
          authenticate: async (req) => {
            if (req.headers.authorization !== 'ok') throw new UnauthenticatedError();
            return admin;
          },
        },
        catalog: new Set(['p']),
        routeMap: [],
        auditLog: {
          write: async (_ex, entry) => {
            recorded.push(entry as WriteAuditEntry);
          },
        },
      });
      routes(scope as unknown as ReturnType<typeof Fastify>);
    });
    return { app, recorded };
  }

  test('start-up fails when a write declares no audit action', async () => {
    await assert.rejects(
      () => surface((s) => s.post('/x', { config: { permission: 'p' } }, async () => ({}))),
      /POST \/x declares no audit action/,
    );
  });

  test('secret-looking fields never reach the entry; a handler that audited itself gets no second entry', async () => {
    const { app, recorded } = await surface((s) => {
      s.post('/things/:id', { config: { permission: 'p', audit: 'thing.changed' } }, async () => ({ message: 'OK', data: { id: 5, api_key: 'k', name: 'n' } }));
      s.post('/self', { config: { permission: 'p', audit: 'thing.self' } }, async () => {
        noteAuditEntry('change');
        return { message: 'OK', data: null };
      });
    });
    const res = await app.inject({ method: 'POST', url: '/things/5', headers: { authorization: 'ok' }, payload: { name: 'n', password: 'hunter2', nested: { refresh_token: 't' } } });
    assert.equal(res.statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/self', headers: { authorization: 'ok' }, payload: {} })).statusCode, 200);
    assert.equal(recorded.length, 1);
    const [entry] = recorded;
    assert.deepEqual([entry!.action, entry!.targetType, entry!.targetId], ['thing.changed', 'thing', '5']);
    const text = JSON.stringify(entry!.after);
    assert.doesNotMatch(text, /hunter2|"t"|"k"/);
    assert.match(text, /"password":"\[redacted\]"/);
    await app.close();
  });
});

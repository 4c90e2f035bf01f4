import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { queryRows } from '../../src/platform/db/database.js';
import { installCustomerSurface } from '../../src/platform/http/surfaces.js';
import { adminSession, cookiesOf } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { cookie, 'user-agent': 'activity-test/1.0', ...headers }, ...(payload ? { payload } : {}) });

async function activity(cookie: string, query = '') {
  const res = await call(cookie, 'GET', `/api/activity${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

let seq = 0;
const unique = (p: string) => `${p}-${process.pid}-${Date.now().toString(36)}-${seq++}`;

describe('customer activity log', () => {
  test('VMs, networks, buckets, keys and deposits are recorded with target, ip and user agent; the customer sees their own at GET /api/activity, staff by actor', async () => {
    const c = await customerSession(t);
    const other = await customerSession(t);
    await fund(t, c.id);

    const vm = await createVm(t, c.cookie, { name: 'web-1', location_id: 1, tier_id: await seededTier(t) });
    assert.equal(vm.statusCode, 201, vm.body);
    const vmId = vm.json().data.id;
    await vmJobsDone(t);
    assert.equal((await call(c.cookie, 'DELETE', `/api/compute/vm/${vmId}`)).statusCode, 200);
    const net = await call(c.cookie, 'POST', '/api/network/private', { name: 'backend', location_id: 1, cidr: 24 });
    assert.equal(net.statusCode, 201, net.body);
    const bucket = await call(c.cookie, 'POST', '/api/storage/object', { name: unique('act'), location_id: 1 });
    assert.equal(bucket.statusCode, 201, bucket.body);
    const key = await call(c.cookie, 'POST', '/api/storage/object/keys', { name: 'ci', location_id: 1 });
    assert.equal(key.statusCode, 201, key.body);
    await queueDrained(t);
    assert.equal((await call(c.cookie, 'DELETE', `/api/storage/object/keys/${key.json().data.AccessKey}`)).statusCode, 200);
    assert.equal((await call(c.cookie, 'DELETE', `/api/storage/object/${bucket.json().data.uuid}`)).statusCode, 200);
    const dep = await call(c.cookie, 'POST', '/api/billing/deposit', { amount: 20000, method_code: 'SP', gateway_name: 'pgone' });
    assert.equal(dep.statusCode, 200, dep.body);

    const mine = await activity(c.cookie, '?limit=100');
    const writes = mine.data.filter((e: { target_type: string }) => e.target_type !== 'customer').reverse();
    assert.deepEqual(
      writes.map((e: { action: string; target_id: string }) => [e.action, e.target_id]),
      [
        ['vm.created', String(vmId)],
        ['vm.deleted', String(vmId)],
        ['network.created', net.json().data.uuid],
        ['bucket.created', bucket.json().data.uuid],
        ['access_key.created', key.json().data.AccessKey],
        ['access_key.deleted', key.json().data.AccessKey],
        ['bucket.deleted', bucket.json().data.uuid],
        ['deposit.created', dep.json().data.invoice_id],
      ],
    );
    const created = writes[0];
    assert.equal(created.target_type, 'vm');
    assert.equal(created.impersonated, false);
    assert.equal(writes[1].ip, '127.0.0.1');
    assert.equal(writes[1].user_agent, 'activity-test/1.0');
    assert.equal(created.details.route, 'POST /api/compute/vm');
    assert.equal(created.details.body.name, 'web-1');
    // the secret of a new key is never in the log
    assert.doesNotMatch(JSON.stringify(mine.data), new RegExp(key.json().data.SecretKey));
    assert.equal(mine.meta.total, mine.data.length);
    // the sign-in is there too (a security event of the account)
    assert.ok(mine.data.some((e: { action: string }) => e.action === 'customer.login'));
    // someone else's log holds none of it
    assert.ok((await activity(other.cookie)).data.every((e: { action: string }) => e.action.startsWith('customer.')));
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/activity' })).statusCode, 401);

    // staff: the same entries by actor, and one resource's history by target
    const staff = await adminSession(t, { permissions: ['view_audit_logs'] });
    const byActor = await t.app.inject({ method: 'GET', url: `/api/backoffice/audit-logs?actor_type=customer&actor_id=${c.id}&limit=100`, headers: { cookie: staff.cookie } });
    assert.equal(byActor.statusCode, 200, byActor.body);
    assert.ok(byActor.json().data.every((e: { actor_type: string; actor_id: number }) => e.actor_type === 'customer' && e.actor_id === c.id));
    assert.ok(byActor.json().data.some((e: { action: string }) => e.action === 'vm.deleted'));
    const byTarget = await t.app.inject({ method: 'GET', url: `/api/backoffice/audit-logs?target_type=vm&target_id=${vmId}`, headers: { cookie: staff.cookie } });
    assert.deepEqual(byTarget.json().data.map((e: { action: string }) => e.action), ['vm.deleted', 'vm.created']);
  });

  test('in an impersonated session the entry names the admin for staff and says impersonated to the customer', async () => {
    const c = await customerSession(t);
    const support = await adminSession(t, { role: 'Admin Support' });
    const imp = await t.app.inject({ method: 'POST', url: `/api/backoffice/customer/${c.id}/impersonate`, headers: { cookie: support.cookie } });
    assert.equal(imp.statusCode, 200, imp.body);
    const impCookie = `access_token=${cookiesOf(imp).access_token}`;
    const res = await call(impCookie, 'PATCH', '/api/customer/profile/notification-setting', { allow_marketing_email: false });
    assert.equal(res.statusCode, 200, res.body);
    const [entry] = (await activity(c.cookie)).data;
    assert.equal(entry.action, 'profile.notification_settings_updated');
    assert.equal(entry.impersonated, true);
    const [row] = await queryRows<{ impersonator_admin_id: number; actor_id: number }>(
      t.container.db,
      sql`select impersonator_admin_id, actor_id from audit_logs where action = 'profile.notification_settings_updated' and actor_id = ${c.id}`,
    );
    assert.deepEqual(row, { impersonator_admin_id: support.id, actor_id: c.id });
  });

  test('written in the transaction of the change: a refused write leaves no entry, and a change whose entry cannot be written does not happen', async () => {
    const c = await customerSession(t);
    // refused before any change: nothing recorded
    assert.equal((await call(c.cookie, 'DELETE', '/api/compute/vm/999999')).statusCode, 404);
    const tooSmall = await call(c.cookie, 'POST', '/api/network/private', { name: 'x', location_id: 999, cidr: 24 });
    assert.equal(tooSmall.statusCode, 400, tooSmall.body);
    assert.deepEqual((await activity(c.cookie)).data.map((e: { action: string }) => e.action), ['customer.login']);

    // the audit log refuses this customer's entries for a moment: the bucket is not created either
    const name = unique('atomic');
    await t.container.db.execute(sql.raw(`create function test_refuse_activity() returns trigger language plpgsql as $$
      begin if new.actor_id = ${c.id} and new.action = 'bucket.created' then raise exception 'refused for the test'; end if; return new; end $$`));
    await t.container.db.execute(sql`create trigger test_refuse_activity before insert on audit_logs for each row execute function test_refuse_activity()`);
    try {
      const res = await call(c.cookie, 'POST', '/api/storage/object', { name, location_id: 1 });
      assert.equal(res.statusCode, 500, res.body);
    } finally {
      await t.container.db.execute(sql`drop trigger test_refuse_activity on audit_logs`);
      await t.container.db.execute(sql`drop function test_refuse_activity()`);
    }
    const [bucket] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from object_storage_buckets where name = ${name}`);
    assert.equal(bucket!.n, 0, 'the bucket rolled back with its activity entry');
  });

  test('an Idempotency-Key replay records nothing more', async () => {
    const c = await customerSession(t);
    const body = { amount: 15000, method_code: 'SP', gateway_name: 'pgone' };
    const first = await call(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'act-1' });
    const again = await call(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'act-1' });
    assert.equal(again.json().data.invoice_id, first.json().data.invoice_id);
    const deposits = (await activity(c.cookie)).data.filter((e: { action: string }) => e.action === 'deposit.created');
    assert.equal(deposits.length, 1);
  });

  test('GET /api/activity is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.paths['/api/activity']?.get, 'documented');
    assert.deepEqual(doc.paths['/api/activity'].get.security, [{ customerCookie: [] }, { apiToken: ['account:read'] }]);
  });
});

describe('start-up', () => {
  test('a signed-in customer write route that declares no activity action stops the app from starting', async () => {
    const build = async (config: Record<string, unknown>) => {
      const app = Fastify();
      await app.register(async (scope) => {
        installCustomerSurface(scope, {
          authenticator: { authenticate: async () => ({ kind: 'customer', customerId: 1, sessionId: 's' }) },
          maintenanceMode: async () => false,
          auditLog: { write: async () => undefined },
        });
        scope.post('/api/thing', { config }, async () => ({ ok: true }));
        scope.get('/api/thing', async () => ({ ok: true }));
      });
      await app.ready();
      await app.close();
    };
    await assert.rejects(build({}), /declares no activity action/);
    await assert.rejects(build({ activity: 'Not An Action' }), /malformed activity action/);
    await build({ activity: 'thing.created' });
    await build({ activity: false });
    await build({ public: true });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { postgresOnly } from '../helpers/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
let lbTier: number;
let plainTier: number;
before(async () => {
  t = await buildTestApp();
  lbTier = await seededTier(t, 'gp.small');
  plainTier = await seededTier(t, 'gp.medium');
  await t.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, lbTier);
  await t.container.services.tiers.updateLoadbalance(SYSTEM_ACTOR, lbTier, { max_targets: 2, max_forwarding_rules: 2, algorithms: ['round_robin'], protocols: ['http', 'tcp'] });
});
after(() => t.close());

const BASE = '/api/network/load-balancer';
const synced = () => queueDrained(t, { queues: ['resources'] });
type Req = { method: 'GET' | 'POST' | 'DELETE' | 'PATCH'; url: string; payload?: Record<string, unknown> };
const call = (cookie: string, r: Req) => t.app.inject({ ...r, headers: { cookie } });
const http80 = [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }];

async function vmOn(cookie: string, tierId: number, location = 1): Promise<number> {
  const res = await createVm(t, cookie, { name: 'v', location_id: location, tier_id: tierId });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id;
}

describe('load balancers', () => {
  test("a health-check path is what the datacenter's HAProxy can take: the API refuses the rest with 400 before anything is created", async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const create = (path: string) =>
      call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'hc', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80, health_check: { protocol: 'http', port: 8080, path } } });
    for (const path of ['/a#b"c{}', "/'", '/a b', '/a\\b', '/x`y', '/<script>', '/a|b', '/a^b', '/é', 'health']) {
      const res = await create(path);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.equal(res.json().errors[0].field, 'health_check.path', path);
    }
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from load_balancers where customer_id = ${c.id}`);
    assert.equal(n!.n, 0);
    const ok = await create('/health/check-1.0_~?full=1&x=%20;y=(a)*+,$:@!');
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('lifecycle: Creating → Active, update rules and health check, targets, delete; applied at the datacenter; listed in the backoffice', async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const a = await vmOn(c.cookie, lbTier);
    const b = await vmOn(c.cookie, lbTier);
    const plain = await vmOn(c.cookie, plainTier);
    await vmJobsDone(t);

    const created = await call(c.cookie, {
      method: 'POST',
      url: BASE,
      payload: { name: 'web', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80, health_check: { protocol: 'http', port: 8080, path: '/health' }, target_vm_ids: [a] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const lb = created.json().data;
    assert.equal(lb.status, 'Creating');
    await synced();
    const active = (await call(c.cookie, { method: 'GET', url: `${BASE}/${lb.uuid}` })).json().data;
    assert.equal(active.status, 'Active');
    assert.ok(active.address);
    assert.equal(active.synced, true);
    const dc = simulator(t).balancers.loadBalancerOf(`lb-${lb.uuid}`);
    assert.deepEqual(dc?.spec.targets, [`vm-${a}`]);
    assert.deepEqual(dc?.spec.healthCheck, { protocol: 'http', port: 8080, path: '/health' });

    // the tier's bounds and switch
    const bad = (payload: Record<string, unknown>) => call(c.cookie, { method: 'PATCH', url: `${BASE}/${lb.uuid}`, payload });
    assert.equal((await bad({ algorithm: 'least_connections' })).json().code, 'TARGET_NOT_ALLOWED');
    assert.equal((await bad({ forwarding_rules: [{ entry_protocol: 'udp', entry_port: 53, target_protocol: 'udp', target_port: 53 }] })).json().code, 'TARGET_NOT_ALLOWED');
    assert.equal((await bad({ forwarding_rules: [...http80, { entry_protocol: 'tcp', entry_port: 81, target_protocol: 'tcp', target_port: 81 }, { entry_protocol: 'tcp', entry_port: 82, target_protocol: 'tcp', target_port: 82 }] })).json().code, 'TARGET_NOT_ALLOWED');
    assert.equal((await bad({ forwarding_rules: [...http80, { entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 9090 }] })).statusCode, 400);
    const addPlain = await call(c.cookie, { method: 'POST', url: `${BASE}/${lb.uuid}/targets`, payload: { vm_ids: [plain] } });
    assert.equal(addPlain.json().code, 'TARGET_NOT_ALLOWED');

    const updated = await bad({ forwarding_rules: [...http80, { entry_protocol: 'tcp', entry_port: 5432, target_protocol: 'tcp', target_port: 5432 }], health_check: { protocol: 'tcp', port: 5432 } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.json().data.health_check.path, null);
    const added = await call(c.cookie, { method: 'POST', url: `${BASE}/${lb.uuid}/targets`, payload: { vm_ids: [b] } });
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json().data.target_vm_ids, [a, b]);
    const third = await vmOn(c.cookie, lbTier);
    assert.equal((await call(c.cookie, { method: 'POST', url: `${BASE}/${lb.uuid}/targets`, payload: { vm_ids: [third] } })).json().code, 'TARGET_NOT_ALLOWED');
    await synced();
    const dc2 = simulator(t).balancers.loadBalancerOf(`lb-${lb.uuid}`);
    assert.deepEqual(dc2?.spec.targets, [`vm-${a}`, `vm-${b}`]);
    assert.equal(dc2?.spec.forwardingRules.length, 2);
    assert.equal(dc2?.address, active.address);

    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${lb.uuid}/targets/${a}` })).statusCode, 200);
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${lb.uuid}/targets/${a}` })).statusCode, 404);

    const admin = await adminSession(t, { permissions: ['view_network'] });
    const bo = await t.app.inject({ method: 'GET', url: `/api/backoffice/network/load-balancers?customer_id=${c.id}`, headers: { cookie: admin.cookie } });
    assert.equal(bo.statusCode, 200, bo.body);
    assert.equal(bo.json().data[0].uuid, lb.uuid);
    assert.match(bo.json().data[0].price_key, /^component:\d+$/);
    const price = await t.container.services.pricing.componentByCode('load_balancer');
    assert.equal(bo.json().data[0].price_key, `component:${price.id}`);

    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${lb.uuid}` })).statusCode, 200);
    await synced();
    assert.equal(simulator(t).balancers.loadBalancerOf(`lb-${lb.uuid}`), undefined);
    assert.equal((await call(c.cookie, { method: 'GET', url: `${BASE}/${lb.uuid}` })).statusCode, 404);
    const deleted = await t.app.inject({ method: 'GET', url: `/api/backoffice/network/load-balancers?status=Deleted&customer_id=${c.id}`, headers: { cookie: admin.cookie } });
    assert.equal(deleted.json().meta.total, 1);
  });

  test("another customer's balancer is a 404 for every verb; their VMs cannot be targets", async () => {
    const owner = await customerSession(t);
    const lb = (await call(owner.cookie, { method: 'POST', url: BASE, payload: { name: 'x', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80 } })).json().data;
    const other = await customerSession(t);
    await fund(t, other.id);
    const vm = await vmOn(other.cookie, lbTier);
    const verbs: Req[] = [
      { method: 'GET', url: `${BASE}/${lb.uuid}` },
      { method: 'PATCH', url: `${BASE}/${lb.uuid}`, payload: { name: 'y' } },
      { method: 'DELETE', url: `${BASE}/${lb.uuid}` },
      { method: 'POST', url: `${BASE}/${lb.uuid}/targets`, payload: { vm_ids: [vm] } },
      { method: 'DELETE', url: `${BASE}/${lb.uuid}/targets/${vm}` },
    ];
    for (const v of verbs) assert.equal((await call(other.cookie, v)).statusCode, 404, `${v.method} ${v.url}`);
    assert.equal((await call(other.cookie, { method: 'GET', url: BASE })).json().meta.total, 0);
    assert.equal((await call(owner.cookie, { method: 'POST', url: `${BASE}/${lb.uuid}/targets`, payload: { vm_ids: [vm] } })).json().code, 'TARGET_NOT_ALLOWED');
  });

  test('a create naming a refused target changes nothing: no balancer, no place in the quota, nothing to bill or build', async () => {
    const c = await customerSession(t, { loadbalancerLimit: 1 });
    await fund(t, c.id);
    const good = await vmOn(c.cookie, lbTier);
    const plain = await vmOn(c.cookie, plainTier);
    const elsewhere = await vmOn(c.cookie, lbTier, 2);
    const other = await customerSession(t);
    await fund(t, other.id);
    const foreign = await vmOn(other.cookie, lbTier);
    await vmJobsDone(t);
    const counts = async () =>
      (
        await queryRows<{ balancers: number; lifecycle: number; meters: number }>(
          t.container.db,
          sql`select (select count(*)::int from load_balancers) as balancers,
                     (select count(*)::int from resource_lifecycle where kind = 'load_balancer') as lifecycle,
                     (select count(*)::int from meters where resource_type = 'load_balancer') as meters`,
        )
      )[0]!;
    const before = await counts();
    const create = (target_vm_ids: number[]) => call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'front', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80, target_vm_ids } });
    for (const targets of [[plain], [good, plain], [elsewhere], [good, foreign], [good, 99_999_999]]) {
      const res = await create(targets);
      assert.equal(res.statusCode, 400, `${targets}: ${res.body}`);
      assert.equal(res.json().code, 'TARGET_NOT_ALLOWED');
      assert.ok(res.json().errors.every((e: { field: string }) => e.field === 'target_vm_ids'), res.body);
    }
    await synced();
    assert.deepEqual(await counts(), before);
    assert.equal((await call(c.cookie, { method: 'GET', url: BASE })).json().meta.total, 0);
    // the one place of the quota is still free
    const made = await create([good]);
    assert.equal(made.statusCode, 201, made.body);
    assert.deepEqual(made.json().data.target_vm_ids, [good]);
  });

  test('loadbalancer_limit holds under parallel creates', postgresOnly('concurrent creates need several connections'), async () => {
    const c = await customerSession(t, { loadbalancerLimit: 3 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(c.cookie, { method: 'POST', url: BASE, payload: { name: `lb-${i}`, location_id: 1, algorithm: 'round_robin', forwarding_rules: http80 } })),
    );
    assert.equal(answers.filter((r) => r.statusCode === 201).length, 3);
    assert.ok(answers.filter((r) => r.statusCode !== 201).every((r) => r.statusCode === 409 && r.json().code === 'QUOTA_EXCEEDED'));
    // a deleted balancer frees its place (once Deleted: a Deleting one still counts)
    const uuid = answers.find((r) => r.statusCode === 201)!.json().data.uuid;
    await synced();
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}` })).statusCode, 200);
    await synced();
    assert.equal((await call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'again', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80 } })).statusCode, 201);
  });
});

describe('a deleted VM', () => {
  test('leaves its security groups and load balancers, at the datacenter too', async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const keep = await vmOn(c.cookie, lbTier);
    const gone = await vmOn(c.cookie, lbTier);
    await vmJobsDone(t);
    const lb = (await call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'w', location_id: 1, algorithm: 'round_robin', forwarding_rules: http80, target_vm_ids: [keep, gone] } })).json().data;
    const sg = (await call(c.cookie, { method: 'POST', url: '/api/network/security-group', payload: { name: 'g', location_id: 1 } })).json().data;
    for (const vm of [keep, gone]) {
      assert.equal((await call(c.cookie, { method: 'POST', url: `/api/compute/vm/${vm}/security-groups`, payload: { security_group_uuid: sg.uuid } })).statusCode, 200);
    }
    await synced();
    await queueDrained(t, { queues: ['resources'] });
    assert.deepEqual(simulator(t).balancers.loadBalancerOf(`lb-${lb.uuid}`)?.spec.targets, [`vm-${keep}`, `vm-${gone}`]);
    assert.deepEqual(simulator(t).firewalls.securityGroupOf(`sg-${sg.uuid}`)?.spec.machines, [`vm-${keep}`, `vm-${gone}`]);

    assert.equal((await call(c.cookie, { method: 'DELETE', url: `/api/compute/vm/${gone}` })).statusCode, 200);
    await vmJobsDone(t);
    await synced();
    await queueDrained(t, { queues: ['resources'] });
    assert.deepEqual(simulator(t).balancers.loadBalancerOf(`lb-${lb.uuid}`)?.spec.targets, [`vm-${keep}`]);
    assert.deepEqual(simulator(t).firewalls.securityGroupOf(`sg-${sg.uuid}`)?.spec.machines, [`vm-${keep}`]);
    assert.deepEqual((await call(c.cookie, { method: 'GET', url: `${BASE}/${lb.uuid}` })).json().data.target_vm_ids, [keep]);
  });
});

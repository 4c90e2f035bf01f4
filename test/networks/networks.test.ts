import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { overlaps } from '../../src/modules/networks/networks.addresses.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { adminSession } from '../helpers/admins.js';
import { createVm, fund, seededTier, simulator } from '../helpers/compute.js';
import { postgresOnly } from '../helpers/database.js';

const clock = new ManualClock('2030-03-01T00:00:00Z');
let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp({ clock });
  tierId = await seededTier(t);
});
after(() => t.close());

type Who = { id: number; cookie: string };
type Method = 'GET' | 'POST' | 'DELETE';

const call = (who: Who, method: Method, url: string, payload?: object, app: TestApp = t) =>
  app.app.inject({ method, url: `/api/network/private${url}`, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

const jobsDone = () => queueDrained(t, { queues: ['resources'] });

async function funded(overrides: Record<string, unknown> = {}): Promise<Who> {
  const c = await customerSession(t, overrides);
  await fund(t, c.id);
  return c;
}

async function activeNetwork(who: Who, cidr = 24, location_id = 1, name = 'backend') {
  const res = await call(who, 'POST', '', { name, location_id, cidr });
  assert.equal(res.statusCode, 201, res.body);
  await jobsDone();
  const detail = await call(who, 'GET', `/${res.json().data.uuid}`);
  assert.equal(detail.json().data.status, 'ACTIVE', detail.body);
  return detail.json().data as { id: number; uuid: string; network_ip: string; cidr: number };
}

async function runningVm(who: Who, name: string, location_id = 1): Promise<number> {
  const res = await createVm(t, who.cookie, { name, location_id, tier_id: tierId, public_ip: false });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id;
}

describe('the network lifecycle with the simulated datacenter', () => {
  test('create → Active → assign → ips, graph, occupation → unassign → delete → cleaned up at the datacenter', async () => {
    const c = await funded();
    const created = await call(c, 'POST', '', { name: 'backend', location_id: 1, cidr: 24 });
    assert.equal(created.statusCode, 201, created.body);
    assert.match(created.json().message, /Active/);
    const net = created.json().data;
    assert.equal(net.status, 'Creating');
    assert.equal(net.network_ip, '10.0.0.0');
    assert.equal(net.cidr, 24);
    assert.equal(net.customer_id, c.id);
    assert.equal(net.gateway, '10.0.0.1');
    assert.deepEqual(net.ip_usage, { used: 0, total: 253 });

    const vmId = await runningVm(c, 'web-1');
    await jobsDone();
    const detail = (await call(c, 'GET', `/${net.uuid}`)).json().data;
    assert.equal(detail.status, 'ACTIVE');
    const list = await call(c, 'GET', '');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().data.map((n: { uuid: string; status: string }) => [n.uuid, n.status]), [[net.uuid, 'ACTIVE']]);
    assert.equal(simulator(t).networkFabric.networkStateOf(`net-${net.id}`)?.cidr, '10.0.0.0/24');

    const assigned = await call(c, 'POST', `/${net.uuid}/assign`, { instance_id: vmId, instance_type: 'VM' });
    assert.equal(assigned.statusCode, 200, assigned.body);
    assert.equal(assigned.json().data.ip, '10.0.0.2', 'network and gateway are skipped');
    assert.equal(assigned.json().data.pending_action, 'attach');
    assert.equal(assigned.json().data.is_registered, false);
    await jobsDone();

    const ips = (await call(c, 'GET', `/${net.uuid}/ips`)).json().data;
    assert.equal(ips.length, 1);
    assert.equal(ips[0].is_registered, true);
    assert.equal(ips[0].pending_action, null);
    assert.equal(ips[0].instance_id, vmId);
    assert.equal(ips[0].instance_type, 'VM');
    assert.equal(ips[0].ip_description, 'web-1');
    assert.equal(typeof ips[0].pos_x, 'number');
    assert.deepEqual(simulator(t).networkFabric.networkStateOf(`net-${net.id}`)?.attachments, { '10.0.0.2': `vm-${vmId}` });
    assert.deepEqual((await call(c, 'GET', `/${net.uuid}`)).json().data.ip_usage, { used: 1, total: 253 });

    const graph = (await call(c, 'GET', `/${net.uuid}/graph`)).json().data;
    assert.equal(graph.private_network_id, net.id);
    assert.equal(graph.nodes.length, 2);
    assert.deepEqual(graph.edges, [{ from: graph.nodes[0].id, to: graph.nodes[1].id }]);
    assert.match(graph.nodes[1].label, /web-1.*10\.0\.0\.2/);

    const refused = await call(c, 'DELETE', `/${net.uuid}`);
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'NETWORK_IN_USE');

    const un = await call(c, 'DELETE', `/${net.uuid}/assign/${vmId}`);
    assert.equal(un.statusCode, 200, un.body);
    assert.equal(un.json().data.pending_action, 'detach');
    await jobsDone();
    assert.deepEqual((await call(c, 'GET', `/${net.uuid}/ips`)).json().data, []);
    assert.deepEqual(simulator(t).networkFabric.networkStateOf(`net-${net.id}`)?.attachments, {});
    assert.equal((await call(c, 'DELETE', `/${net.uuid}/assign/${vmId}`)).statusCode, 404, 'nothing left to unassign');

    const del = await call(c, 'DELETE', `/${net.uuid}`);
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((await call(c, 'GET', `/${net.uuid}`)).statusCode, 404);
    assert.deepEqual((await call(c, 'GET', '')).json().data, []);
    await jobsDone();
    assert.equal(simulator(t).networkFabric.networkStateOf(`net-${net.id}`), undefined, 'removed at the datacenter');
    const [row] = await queryRows<{ status: string; deleted: boolean; task: string | null }>(
      t.container.db,
      sql`select status, deleted_at is not null as deleted, task from private_networks where id = ${net.id}`,
    );
    assert.deepEqual(row, { status: 'Deleted', deleted: true, task: null }, 'a soft delete');
  });

  test('a datacenter failure keeps the network Creating (no assign, no delete) until the sweep retries it after its back-off', async () => {
    const c = await funded();
    simulator(t).failNext('create_network', 1, 'switch unreachable');
    const net = (await call(c, 'POST', '', { name: 'flaky', location_id: 1, cidr: 24 })).json().data;
    const vmId = await runningVm(c, 'app');
    await jobsDone();
    const failed = (await call(c, 'GET', `/${net.uuid}`)).json().data;
    assert.equal(failed.status, 'Creating');
    assert.equal(failed.sync.state, 'failed');
    assert.equal(failed.sync.last_error, 'switch unreachable');
    assert.equal(failed.sync.next_retry_at, new Date(clock.now().getTime() + 60_000).toISOString(), 'first retry after a minute');
    const early = await call(c, 'POST', `/${net.uuid}/assign`, { instance_id: vmId, instance_type: 'VM' });
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().code, 'NETWORK_NOT_ACTIVE');
    assert.equal((await call(c, 'DELETE', `/${net.uuid}`)).json().code, 'NETWORK_BUSY');
    assert.equal(await t.container.lifecycle.sweep(), 0, 'too early to try again');
    clock.advance(3 * 60_000);
    assert.equal(await t.container.lifecycle.sweep(), 1);
    await jobsDone();
    const active = (await call(c, 'GET', `/${net.uuid}`)).json().data;
    assert.equal(active.status, 'ACTIVE');
    assert.deepEqual(active.sync, { state: 'synced', last_error: null, last_error_at: null, attempts: 0, next_retry_at: null });
  });

  test('deleting a VM releases its private IPs', async () => {
    const c = await funded();
    const net = await activeNetwork(c);
    const vmId = await runningVm(c, 'doomed');
    await jobsDone();
    assert.equal((await call(c, 'POST', `/${net.uuid}/assign`, { instance_id: vmId, instance_type: 'VM' })).statusCode, 200);
    await jobsDone();
    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vmId}`, headers: { cookie: c.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    await jobsDone();
    assert.deepEqual((await call(c, 'GET', `/${net.uuid}/ips`)).json().data, []);
    assert.deepEqual(simulator(t).networkFabric.networkStateOf(`net-${net.id}`)?.attachments, {});
    assert.equal((await call(c, 'DELETE', `/${net.uuid}`)).statusCode, 200, 'nothing holds the network any more');
    await jobsDone();
  });
});

describe('creation rules', () => {
  test('cidr 16 to 24, a known active location, no unknown fields, a sensible name', async () => {
    const c = await funded();
    for (const body of [
      { name: 'n', location_id: 1, cidr: 15 },
      { name: 'n', location_id: 1, cidr: 25 },
      { name: 'n', location_id: 1, cidr: '24' },
      { name: 'n', location_id: 1 },
      { name: '', location_id: 1, cidr: 24 },
      { name: 'n', location_id: 1, cidr: 24, network_ip: '10.9.0.0' },
    ]) {
      const res = await call(c, 'POST', '', body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
    }
    const inactive = await call(c, 'POST', '', { name: 'n', location_id: 3, cidr: 24 });
    assert.equal(inactive.json().code, 'LOCATION_UNAVAILABLE');
    assert.equal((await call(c, 'GET', '/not-a-uuid')).statusCode, 400);
    assert.equal((await call(c, 'GET', '/6f1c1f4e-8a43-4d7c-9a77-0b8f0a0d5c11')).statusCode, 404);
  });

  test('refused while the balance is below zero; a zero balance is enough', async () => {
    const zero = await customerSession(t);
    assert.equal((await call(zero, 'POST', '', { name: 'free', location_id: 1, cidr: 24 })).statusCode, 201);
    const debtor = await customerSession(t);
    await t.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${debtor.id}, -10, -10)`);
    const res = await call(debtor, 'POST', '', { name: 'n', location_id: 1, cidr: 24 });
    assert.equal(res.statusCode, 402, res.body);
    assert.equal(res.json().code, 'INSUFFICIENT_BALANCE');
    await jobsDone();
  });

  test('ranges of one customer never overlap; at most 5 networks; a deleted one frees its place and range', async () => {
    const c = await funded();
    const sizes = [24, 16, 20, 24, 22];
    const made = [];
    for (const cidr of sizes) {
      const res = await call(c, 'POST', '', { name: `n${cidr}`, location_id: 1, cidr });
      assert.equal(res.statusCode, 201, res.body);
      made.push(res.json().data as { uuid: string; network_ip: string; cidr: number });
    }
    for (const a of made) for (const b of made) if (a !== b) assert.equal(overlaps({ networkIp: a.network_ip, cidr: a.cidr }, { networkIp: b.network_ip, cidr: b.cidr }), false);
    assert.deepEqual(made.map((n) => `${n.network_ip}/${n.cidr}`), ['10.0.0.0/24', '10.1.0.0/16', '10.0.16.0/20', '10.0.1.0/24', '10.0.4.0/22']);
    const sixth = await call(c, 'POST', '', { name: 'six', location_id: 1, cidr: 24 });
    assert.equal(sixth.statusCode, 409);
    assert.equal(sixth.json().code, 'QUOTA_EXCEEDED');
    await jobsDone();
    assert.equal((await call(c, 'DELETE', `/${made[0]!.uuid}`)).statusCode, 200);
    await jobsDone();
    const again = await call(c, 'POST', '', { name: 'again', location_id: 1, cidr: 24 });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().data.network_ip, '10.0.0.0', 'the removed range is free again');
    const other = await funded();
    assert.equal((await call(other, 'POST', '', { name: 'mine', location_id: 1, cidr: 24 })).json().data.network_ip, '10.0.0.0', 'ranges are per customer');
    await jobsDone();
  });

  test('12 parallel creates: exactly 5 networks, none overlapping', async () => {
    const c = await funded();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(c, 'POST', '', { name: `p${i}`, location_id: 1, cidr: i % 2 ? 24 : 20 })));
    const ok = answers.filter((r) => r.statusCode === 201).map((r) => r.json().data as { network_ip: string; cidr: number });
    assert.equal(ok.length, 5, JSON.stringify(answers.map((r) => r.statusCode)));
    assert.ok(answers.filter((r) => r.statusCode !== 201).every((r) => r.statusCode === 409));
    for (const a of ok) for (const b of ok) if (a !== b) assert.equal(overlaps({ networkIp: a.network_ip, cidr: a.cidr }, { networkIp: b.network_ip, cidr: b.cidr }), false);
    await jobsDone();
  });
});

describe('assignment rules', () => {
  test('own VM only, same location, Running or Stopped, once per network, VM type only', async () => {
    const c = await funded();
    const net = await activeNetwork(c);
    const vm1 = await runningVm(c, 'one');
    const far = await runningVm(c, 'far', 2);
    const stranger = await funded();
    const strangersVm = await runningVm(stranger, 'theirs');
    await jobsDone();
    simulator(t).failNext('create');
    const broken = await runningVm(c, 'broken');
    await jobsDone();
    const assign = (instance_id: number, instance_type = 'VM') => call(c, 'POST', `/${net.uuid}/assign`, { instance_id, instance_type });
    assert.equal((await assign(far)).json().code, 'LOCATION_MISMATCH');
    assert.equal((await assign(strangersVm)).statusCode, 404);
    const brokenRes = await assign(broken);
    assert.equal(brokenRes.json().code, 'INVALID_VM_STATE', brokenRes.body);
    assert.equal((await assign(vm1, 'LB')).statusCode, 400);
    assert.equal((await call(c, 'POST', `/${net.uuid}/assign`, { instance_id: vm1 })).statusCode, 400);
    simulator(t).failNext('attach_ip');
    assert.equal((await assign(vm1)).statusCode, 200);
    const twice = await assign(vm1);
    assert.equal(twice.statusCode, 409);
    assert.equal(twice.json().code, 'ALREADY_ASSIGNED');
    await jobsDone();
    // the attach failed at the datacenter: still pending, so it cannot be unassigned yet
    const busy = await call(c, 'DELETE', `/${net.uuid}/assign/${vm1}`);
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.json().code, 'IP_BUSY');
    assert.equal((await call(c, 'GET', `/${net.uuid}/ips`)).json().data[0].is_registered, false);
    assert.equal((await call(c, 'GET', `/${net.uuid}/ips`)).json().data[0].sync.state, 'failed');
    clock.advance(3 * 60_000);
    await t.container.lifecycle.sweep();
    await jobsDone();
    assert.equal((await call(c, 'GET', `/${net.uuid}/ips`)).json().data[0].is_registered, true, 'the sweep attached it');
    // a stopped VM can join too
    const vm2 = await runningVm(c, 'two');
    await jobsDone();
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm2}/stop`, headers: { cookie: c.cookie } });
    await jobsDone();
    const stopped = await assign(vm2);
    assert.equal(stopped.statusCode, 200, stopped.body);
    assert.equal(stopped.json().data.ip, '10.0.0.3');
    await jobsDone();
  });

  test('private_ip_limit counts every address the customer holds', async () => {
    const c = await funded({ privateIpLimit: 2 });
    const a = await activeNetwork(c, 24, 1, 'a');
    const b = await activeNetwork(c, 24, 1, 'b');
    const vms = [await runningVm(c, 'v1'), await runningVm(c, 'v2'), await runningVm(c, 'v3')];
    await jobsDone();
    assert.equal((await call(c, 'POST', `/${a.uuid}/assign`, { instance_id: vms[0], instance_type: 'VM' })).statusCode, 200);
    assert.equal((await call(c, 'POST', `/${b.uuid}/assign`, { instance_id: vms[0], instance_type: 'VM' })).statusCode, 200, 'one VM on two networks');
    const over = await call(c, 'POST', `/${a.uuid}/assign`, { instance_id: vms[1], instance_type: 'VM' });
    assert.equal(over.statusCode, 409);
    assert.equal(over.json().code, 'QUOTA_EXCEEDED');
    await jobsDone();
  });

  test('20 parallel assigns to a /29 hand out its 5 host addresses, never one twice', async () => {
    const c = await funded({ vmLimit: 25, privateIpLimit: 50 });
    const net = await activeNetwork(c);
    // a /29 (smaller than the API allows) makes the network run out under the burst
    await t.container.db.execute(sql`update private_networks set cidr = 29 where id = ${net.id}`);
    const vms = [];
    for (let i = 0; i < 20; i++) vms.push(await runningVm(c, `burst-${i}`));
    await jobsDone();
    const answers = await Promise.all(vms.map((id) => call(c, 'POST', `/${net.uuid}/assign`, { instance_id: id, instance_type: 'VM' })));
    const ok = answers.filter((r) => r.statusCode === 200).map((r) => r.json().data.ip as string);
    assert.equal(ok.length, 5, JSON.stringify(answers.map((r) => r.statusCode)));
    assert.deepEqual([...ok].sort(), ['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
    assert.ok(answers.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 409 && r.json().code === 'NO_CAPACITY'), JSON.stringify(answers.map((r) => r.json().code)));
    assert.deepEqual((await call(c, 'GET', `/${net.uuid}`)).json().data.ip_usage, { used: 5, total: 5 });
    await jobsDone();
    assert.equal(Object.keys(simulator(t).networkFabric.networkStateOf(`net-${net.id}`)?.attachments ?? {}).length, 5);
  });

  test('two API processes assigning at once never hand out one address twice (PostgreSQL)', postgresOnly('two API processes need one PostgreSQL database'), async () => {
    const second = await buildTestApp({ sameDatabaseAs: t, worker: false, clock });
    try {
      const c = await funded({ vmLimit: 30, privateIpLimit: 50 });
      const net = await activeNetwork(c);
      const vms = [];
      for (let i = 0; i < 24; i++) vms.push(await runningVm(c, `two-${i}`));
      await jobsDone();
      const answers = await Promise.all(vms.map((id, i) => call(c, 'POST', `/${net.uuid}/assign`, { instance_id: id, instance_type: 'VM' }, i % 2 ? second : t)));
      assert.ok(answers.every((r) => r.statusCode === 200), JSON.stringify(answers.map((r) => r.body)));
      const ips = answers.map((r) => r.json().data.ip as string);
      assert.equal(new Set(ips).size, 24);
      const [row] = await queryRows<{ n: number; ips: number }>(t.container.db, sql`select count(*)::int as n, count(distinct ip)::int as ips from private_ips where network_id = ${net.id}`);
      assert.deepEqual(row, { n: 24, ips: 24 });
      await jobsDone();
    } finally {
      await second.close();
    }
  });
});

describe('isolation and pricing', () => {
  test("another customer's network is a 404 for every verb", async () => {
    const owner = await funded();
    const net = await activeNetwork(owner);
    const vm = await runningVm(owner, 'mine');
    await jobsDone();
    await call(owner, 'POST', `/${net.uuid}/assign`, { instance_id: vm, instance_type: 'VM' });
    await jobsDone();
    const other = await funded();
    const otherVm = await runningVm(other, 'theirs');
    await jobsDone();
    for (const [method, url, body] of [
      ['GET', `/${net.uuid}`],
      ['GET', `/${net.uuid}/ips`],
      ['GET', `/${net.uuid}/graph`],
      ['POST', `/${net.uuid}/assign`, { instance_id: otherVm, instance_type: 'VM' }],
      ['DELETE', `/${net.uuid}/assign/${vm}`],
      ['DELETE', `/${net.uuid}`],
    ] as [Method, string, object?][]) {
      const res = await call(other, method, url, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    assert.deepEqual((await call(other, 'GET', '')).json().data, []);
    assert.equal((await call(owner, 'GET', `/${net.uuid}/ips`)).json().data.length, 1, 'untouched');
  });

  test('an Active network is priced by the private_network component of its location', async () => {
    const c = await funded();
    const net = await activeNetwork(c, 24, 2);
    const component = await t.container.services.pricing.componentByCode('private_network');
    const priced = await t.container.services.networks.runningIn(2);
    const mine = priced.find((p) => p.resourceId === net.id);
    assert.deepEqual(mine, { resourceType: 'private_network', resourceId: net.id, items: [{ priceKey: `component:${component.id}`, quantity: 1 }] });
  });
});

describe('backoffice', () => {
  test('view_network lists every customer\'s networks with occupation and shows one with its addresses and datacenter side', async () => {
    const c = await funded();
    const net = await activeNetwork(c, 24, 1, 'ops-view');
    const vm = await runningVm(c, 'seen');
    await jobsDone();
    await call(c, 'POST', `/${net.uuid}/assign`, { instance_id: vm, instance_type: 'VM' });
    await jobsDone();
    const admin = await adminSession(t, { role: 'Admin' });
    const list = await t.app.inject({ method: 'GET', url: `/api/backoffice/network/private?customer_id=${c.id}`, headers: { cookie: admin.cookie } });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.total, 1);
    const row = list.json().data[0];
    assert.equal(row.status, 'Active');
    assert.deepEqual(row.ip_usage, { used: 1, total: 253 });
    assert.ok(row.external_id);
    const one = await t.app.inject({ method: 'GET', url: `/api/backoffice/network/private/${net.uuid}`, headers: { cookie: admin.cookie } });
    assert.equal(one.statusCode, 200, one.body);
    assert.equal(one.json().data.ips[0].instance_id, vm);
    const billing = await adminSession(t, { role: 'Admin Billing' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/network/private', headers: { cookie: billing.cookie } })).statusCode, 403);
  });
});

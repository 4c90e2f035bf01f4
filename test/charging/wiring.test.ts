import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { componentKey, storageTierKey, tierComponentKey, tierKey } from '../../src/modules/pricing/index.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { insertPrice } from './helpers.js';

// The resources open and close their meters themselves (src/container.ts, "Wiring"): these tests
// go through HTTP and the jobs, move the injected clock and run the hourly charge by hand.
const HOUR = 3_600_000;
const END = Math.floor(Date.now() / HOUR) * HOUR;
const BASE = END - 40 * HOUR;
const clock = new ManualClock(new Date(BASE));
let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp({ clock });
  tierId = await seededTier(t);
  await t.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, tierId);
});
after(() => t.close());

type Who = Awaited<ReturnType<typeof customerSession>>;

/** Moves the clock; the customer logs in again (an access token lasts minutes). */
async function moveTo(c: Who, ms: number): Promise<void> {
  clock.set(new Date(ms));
  c.cookie = await loginCustomer(t, c.email, c.password);
}

async function hourlyPrice(key: string): Promise<Decimal> {
  const p = (await t.container.services.pricing.pricesAt([key], 1, clock.now())).get(key);
  assert.ok(p, `a price for ${key}`);
  return new Decimal(p.hourlyPrice);
}

async function chargeUntil(c: Who, ms: number) {
  await moveTo(c, ms + 5 * 60_000);
  await t.container.services.charging.runHourly();
  await queueDrained(t);
}

async function usage(customerId: number) {
  return queryRows<{ resource_type: string; resource_id: string; price_key: string; hour: Date | string; amount: string; quantity: string }>(
    t.container.db,
    sql`select m.resource_type, m.resource_id, m.price_key, u.hour, u.amount::text, m.quantity::text
        from usage_records u join meters m on m.id = u.meter_id where u.customer_id = ${customerId} order by u.hour, m.price_key`,
  );
}

const sum = (rows: { amount: string }[]) => rows.reduce((s, r) => s.plus(r.amount), new Decimal(0));

async function storageTierId(cookie: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/compute/block-storage-tiers?location_id=1', headers: { cookie } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data[0].id;
}

async function balanceOf(customerId: number): Promise<string> {
  return (await t.container.services.wallet.balances(customerId)).currentBalance;
}

describe('every billable resource is metered by its own state changes', () => {
  test('a VM is charged its tier, public IP and volume from Running until Deleted (Stopped included), nothing after', async () => {
    clock.set(new Date(BASE));
    const c: Who = await customerSession(t);
    await fund(t, c.id);
    const stId = await storageTierId(c.cookie);
    const res = await createVm(t, c.cookie, { name: 'web-1', location_id: 1, tier_id: tierId, block_storage_tier_id: stId, block_storage_gb: 50 });
    assert.equal(res.statusCode, 201, res.body);
    const vm = res.json().data;
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');

    const ip = await t.container.services.pricing.componentByCode('public_ip');
    // the public IP: the tier's own price of it while one is in force, else the location's (here)
    const keys = [tierKey(tierId), tierComponentKey(tierId, ip.id), storageTierKey(stId)];
    const perHour = new Map([
      [keys[0]!, await hourlyPrice(keys[0]!)],
      [keys[1]!, await hourlyPrice(componentKey(ip.id))],
      [keys[2]!, (await hourlyPrice(keys[2]!)).times(50)],
    ]);
    const meters = await queryRows<{ price_key: string; fallback_price_key: string | null; quantity: string; started_at: Date | string }>(
      t.container.db,
      sql`select price_key, fallback_price_key, quantity::text, started_at from meters where resource_type = 'vm' and resource_id = ${String(vm.id)} order by id`,
    );
    assert.deepEqual(meters.map((m) => m.price_key).sort(), [...keys].sort());
    assert.equal(meters.find((m) => m.price_key === keys[1])!.fallback_price_key, componentKey(ip.id));
    assert.equal(new Date(meters[0]!.started_at).getTime(), BASE);
    assert.equal(Number(meters.find((m) => m.price_key === keys[2])!.quantity), 50);

    // stopped in the second hour: still paying (disk, IP and the compute: not deallocated)
    await moveTo(c, BASE + HOUR + 10 * 60_000);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Stopped');

    // deleted exactly 3 hours after it started
    await moveTo(c, BASE + 3 * HOUR);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.id}`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Deleted');

    const before = await balanceOf(c.id);
    await chargeUntil(c, BASE + 6 * HOUR);
    const rows = await usage(c.id);
    assert.equal(rows.length, 9, 'three meters for three hours, nothing after the delete');
    for (const r of rows) {
      assert.equal(r.resource_type, 'vm');
      assert.ok(new Date(r.hour).getTime() < BASE + 3 * HOUR);
      assert.equal(new Decimal(r.amount).toString(), perHour.get(r.price_key)!.toString(), `${r.price_key} at ${String(r.hour)}`);
    }
    const expected = [...perHour.values()].reduce((s, x) => s.plus(x), new Decimal(0)).times(3);
    assert.equal(sum(rows).toString(), expected.toString());
    // the wallet paid it (rounded to the cent at most)
    const paid = new Decimal(before).minus(await balanceOf(c.id));
    assert.ok(paid.minus(expected).abs().lte('0.01'), `paid ${paid.toString()} for ${expected.toString()}`);
  });

  test('a private network is charged from Active until its delete; a bucket by its size, and a resize changes the quantity at that instant', async () => {
    const from = BASE + 10 * HOUR;
    clock.set(new Date(from));
    const c: Who = await customerSession(t);
    await fund(t, c.id);
    const pn = await t.container.services.pricing.componentByCode('private_network');
    await insertPrice(t, componentKey(pn.id), '7300', new Date(BASE - HOUR).toISOString()); // 10.000000 an hour
    const os = await t.container.services.pricing.componentByCode('object_storage_gb');
    const gbHour = await hourlyPrice(componentKey(os.id));

    const net = await t.app.inject({ method: 'POST', url: '/api/network/private', headers: { cookie: c.cookie }, payload: { name: 'backend', location_id: 1, cidr: 24 } });
    assert.equal(net.statusCode, 201, net.body);
    const bucket = await t.app.inject({ method: 'POST', url: '/api/storage/object', headers: { cookie: c.cookie }, payload: { name: `wired-${process.pid}-${Date.now().toString(36)}`, location_id: 1, size: 10 } });
    assert.equal(bucket.statusCode, 201, bucket.body);
    await queueDrained(t);

    // the bucket grows to 30 GB after 2 hours; the network is deleted after 3
    await moveTo(c, from + 2 * HOUR);
    const grow = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${bucket.json().data.uuid}/resize`, headers: { cookie: c.cookie }, payload: { size: 30 } });
    assert.equal(grow.statusCode, 200, grow.body);
    await moveTo(c, from + 3 * HOUR);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/network/private/${net.json().data.uuid}`, headers: { cookie: c.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    await queueDrained(t);

    await chargeUntil(c, from + 4 * HOUR);
    const rows = await usage(c.id);
    const network = rows.filter((r) => r.resource_type === 'network');
    assert.equal(network.length, 3);
    assert.equal(sum(network).toString(), '30');
    const buckets = rows.filter((r) => r.resource_type === 'bucket');
    assert.deepEqual(
      buckets.map((r) => Number(r.quantity)),
      [10, 10, 30, 30],
    );
    assert.equal(sum(buckets).toString(), gbHour.times(10 * 2 + 30 * 2).toString());
  });

  test('a balance below zero suspends the VMs at the datacenter; a staff ADD resumes them', async () => {
    const from = BASE + 20 * HOUR;
    clock.set(new Date(from));
    const c: Who = await customerSession(t);
    const perHour = await hourlyPrice(tierKey(tierId));
    // enough for about an hour and a half
    const amount = perHour.times(1.5).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2);
    await fund(t, c.id, amount);
    const key = await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: { cookie: c.cookie }, payload: { name: 'k1', location_id: 1 } });
    assert.equal(key.statusCode, 201, key.body);
    const keySuspended = async () => {
      const r = await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: { cookie: c.cookie } });
      assert.equal(r.statusCode, 200, r.body);
      return r.json().data[0].suspended as boolean;
    };
    const res = await createVm(t, c.cookie, { name: 'short-1', location_id: 1, tier_id: tierId, public_ip: false });
    assert.equal(res.statusCode, 201, res.body);
    const vm = res.json().data;
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');

    await chargeUntil(c, from + 2 * HOUR);
    assert.ok(new Decimal(await balanceOf(c.id)).lt(0));
    await queueDrained(t);
    const suspended = await getVm(t, c.cookie, vm.id);
    assert.equal(suspended.status, 'Suspended');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.running, false);
    // the object storage keys are refused too
    assert.equal(await keySuspended(), true);
    // a suspended VM keeps its meters (it still holds its resources)
    assert.equal((await queryRows(t.container.db, sql`select 1 from meters where resource_type = 'vm' and resource_id = ${String(vm.id)} and stopped_at is null`)).length, 1);

    const boss = await adminSession(t);
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/customer/${c.id}/balance`,
      headers: { cookie: boss.cookie },
      payload: { type: 'ADD', amount: 100000, description: 'goodwill' },
    });
    assert.equal(add.statusCode, 200, add.body);
    await queueDrained(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.running, true);
    assert.equal(await keySuspended(), false);
  });

  test('a load balancer is charged at its own price key from Active until Deleted', async () => {
    const from = BASE + 30 * HOUR;
    clock.set(new Date(from));
    const c: Who = await customerSession(t);
    await fund(t, c.id);
    const v = await createVm(t, c.cookie, { name: 'behind-lb', location_id: 1, tier_id: tierId, public_ip: false });
    assert.equal(v.statusCode, 201, v.body);
    await vmJobsDone(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/network/load-balancer',
      headers: { cookie: c.cookie },
      payload: { name: 'web', location_id: 1, algorithm: 'round_robin', forwarding_rules: [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }], target_vm_ids: [v.json().data.id] },
    });
    assert.equal(created.statusCode, 201, created.body);
    await queueDrained(t);
    const lb = await queryRows<{ id: number; status: string; price_key: string }>(t.container.db, sql`select id, status, price_key from load_balancers where uuid = ${created.json().data.uuid}`);
    assert.equal(lb[0]!.status, 'Active');
    const lbHour = await hourlyPrice(lb[0]!.price_key);

    await moveTo(c, from + 2 * HOUR);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/network/load-balancer/${created.json().data.uuid}`, headers: { cookie: c.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    await queueDrained(t);

    await chargeUntil(c, from + 4 * HOUR);
    const rows = (await usage(c.id)).filter((r) => r.resource_type === 'load_balancer');
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.resource_id === String(lb[0]!.id) && r.price_key === lb[0]!.price_key));
    assert.equal(sum(rows).toString(), lbHour.times(2).toString());
  });
});

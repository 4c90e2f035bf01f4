import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { ledgerOf } from '../helpers/money.js';
import { insertPrice } from '../charging/helpers.js';

const HOUR = 3_600_000;
const START = Date.parse('2030-01-01T10:00:00Z');
const clock = new ManualClock(new Date(START));
let t: TestApp;
let small: number;
let medium: number;

before(async () => {
  t = await buildTestApp({ clock });
  small = await seededTier(t, 'gp.small');
  medium = await seededTier(t, 'gp.medium');
  // round prices: 100 and 200 an hour in location 1
  await insertPrice(t, `tier:${small}`, '73000', '2029-12-31T00:00:00Z');
  await insertPrice(t, `tier:${medium}`, '146000', '2029-12-31T00:00:00Z');
});
after(() => t.close());

async function fundedCustomer(overrides: Record<string, unknown> = {}) {
  const c = await customerSession(t, overrides);
  await fund(t, c.id);
  return c;
}

async function runningVm(cookie: string, body: Record<string, unknown> = {}) {
  const res = await createVm(t, cookie, { name: 'web-1', location_id: 1, tier_id: small, ...body });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(t);
  return res.json().data as { id: number; name: string };
}

const preview = (cookie: string, id: number, tierId: unknown) => t.app.inject({ method: 'GET', url: `/api/compute/vm/${id}/resize-preview?tier_id=${String(tierId)}`, headers: { cookie } });
const resize = (cookie: string, id: number, payload: unknown) => t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/resize`, headers: { cookie }, payload: payload as object });

async function openMeters(vmId: number) {
  return queryRows<{ price_key: string; description: string }>(t.container.db, sql`select price_key, description from meters where resource_type = 'vm' and resource_id = ${String(vmId)} and stopped_at is null order by price_key`);
}

describe('resizing a VM', () => {
  test('the price first, then a Running VM is stopped, resized and started again; its meters switch; audited', async () => {
    const c = await fundedCustomer();
    const vm = await runningVm(c.cookie);

    const quote = await preview(c.cookie, vm.id, medium);
    assert.equal(quote.statusCode, 200, quote.body);
    const q = quote.json().data;
    assert.equal(q.current.tier_id, small);
    assert.equal(q.new.tier_name, 'gp.medium');
    assert.equal(q.monthly_difference, 73000);
    assert.equal(q.hourly_difference, 100);
    assert.equal(q.new.monthly_price - q.current.monthly_price, 73000, 'both sides carry the same public IP');
    assert.equal(q.restart, true);
    assert.equal(q.disk_gb, 50);
    assert.equal((await getVm(t, c.cookie, vm.id)).pending_action, null, 'a preview changes nothing');

    // the datacenter takes its time, so the change is still in flight below
    simulator(t).hosts.delayMs = 400;
    const res = await resize(c.cookie, vm.id, { tier_id: medium });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().message, /restarts/);
    assert.equal(res.json().data.pending_action, 'resize');
    assert.equal(res.json().data.tier_id, small, 'the tier changes when the datacenter is done');
    assert.deepEqual(res.json().data.resize, { from_tier_id: small, to_tier_id: medium }, 'the answer names the tier it moves to');
    assert.deepEqual((await getVm(t, c.cookie, vm.id)).resize, { from_tier_id: small, to_tier_id: medium }, 'and so does the VM while it is under way');

    // one change of a VM at a time
    const again = await resize(c.cookie, vm.id, { tier_id: medium });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'VM_BUSY');
    const stop = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    assert.equal(stop.json().code, 'VM_BUSY');
    await vmJobsDone(t);
    simulator(t).hosts.delayMs = 0;
    const after = await getVm(t, c.cookie, vm.id);
    assert.equal(after.status, 'Running');
    assert.equal(after.pending_action, null);
    assert.equal(after.resize, null, 'no resize once it is done');
    assert.deepEqual([after.tier_id, after.cpu, after.memory_mb, after.disk_gb], [medium, 2, 4096, 50]);
    const machine = simulator(t).vmHosts.stateOf(`vm-${vm.id}`)!;
    assert.deepEqual([machine.running, machine.cpu, machine.memoryMb, machine.diskGb], [true, 2, 4096, 50]);
    assert.equal(simulator(t).vmHosts.restarts.get(`vm-${vm.id}`), 1);

    const ip = (await t.container.services.pricing.componentByCode('public_ip')).id;
    assert.deepEqual(
      (await openMeters(vm.id)).map((m) => m.price_key),
      [`tier:${medium}`, `tier:${medium}:component:${ip}`],
    );
    assert.equal((await openMeters(vm.id))[0]!.description, 'VM web-1 (gp.medium)');

    const [audit] = await queryRows<{ n: number; body: string }>(
      t.container.db,
      sql`select count(*)::int as n, max(after::text) as body from audit_logs where action = 'vm.resized' and target_id = ${String(vm.id)} and actor_id = ${c.id}`,
    );
    assert.equal(audit!.n, 1);
    assert.match(audit!.body, new RegExp(`"tier_id": ?${medium}`));
  });

  test('a Stopped VM is resized and stays stopped', async () => {
    const c = await fundedCustomer();
    const vm = await runningVm(c.cookie);
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal((await preview(c.cookie, vm.id, medium)).json().data.restart, false);
    const res = await resize(c.cookie, vm.id, { tier_id: medium });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().message, /stays stopped/);
    await vmJobsDone(t);
    const after = await getVm(t, c.cookie, vm.id);
    assert.deepEqual([after.status, after.tier_id, after.cpu], ['Stopped', medium, 2]);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)!.running, false);
    assert.equal(simulator(t).vmHosts.restarts.get(`vm-${vm.id}`), undefined);
  });

  test('refusals: a smaller disk, the same tier, a tier not offered here, bad input, another customer’s VM', async () => {
    const c = await fundedCustomer();
    const vm = await runningVm(c.cookie, { tier_id: medium });
    for (const call of [(body: { tier_id: unknown }) => resize(c.cookie, vm.id, body), (body: { tier_id: unknown }) => preview(c.cookie, vm.id, body.tier_id)]) {
      const shrink = await call({ tier_id: small });
      assert.equal(shrink.statusCode, 400, shrink.body);
      assert.equal(shrink.json().code, 'DISK_CANNOT_SHRINK');
      assert.equal(shrink.json().errors[0].field, 'tier_id');
      assert.equal((await call({ tier_id: medium })).json().code, 'TIER_UNCHANGED');
      assert.equal((await call({ tier_id: 999_999 })).json().code, 'TIER_UNAVAILABLE');
      assert.equal((await call({ tier_id: 'big' })).statusCode, 400);
    }
    assert.equal((await resize(c.cookie, vm.id, {})).statusCode, 400);
    assert.equal((await resize(c.cookie, vm.id, { tier_id: medium, colour: 'red' })).statusCode, 400);

    // a tier bound to location 2 is not offered to a VM of location 1
    const admin = await adminSession(t);
    const types = (await t.app.inject({ method: 'GET', url: '/api/backoffice/node/tier-types', headers: { cookie: admin.cookie } })).json().data;
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/tier/create',
      headers: { cookie: admin.cookie },
      payload: { name: `far-${Date.now()}`, tier_type_id: types[0].id, cpu: 4, memory_mb: 8192, disk_gb: 200, cpu_limit: 100, location_id: 2 },
    });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    await insertPrice(t, `tier:${elsewhere.json().data.id}`, '1000', '2029-12-31T00:00:00Z', 2);
    assert.equal((await resize(c.cookie, vm.id, { tier_id: elsewhere.json().data.id })).json().code, 'TIER_UNAVAILABLE');

    const other = await fundedCustomer();
    assert.equal((await resize(other.cookie, vm.id, { tier_id: medium })).statusCode, 404);
    assert.equal((await preview(other.cookie, vm.id, medium)).statusCode, 404);
    assert.equal((await getVm(t, c.cookie, vm.id)).pending_action, null);
  });

  test('money: below zero, a dearer tier is 402 and a cheaper one is allowed; a suspended VM is 409', async () => {
    const poor = await customerSession(t);
    await fund(t, poor.id, '10.00');
    const vm = await runningVm(poor.cookie);
    await t.container.db.transaction((tx) =>
      t.container.services.wallet.debit(tx, { customerId: poor.id, type: BalanceLogType.Charge, amount: '20.00', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: `neg-${poor.id}`, description: 'test debt' }),
    );
    const dearer = await resize(poor.cookie, vm.id, { tier_id: medium });
    assert.equal(dearer.statusCode, 402, dearer.body);
    assert.equal(dearer.json().code, 'INSUFFICIENT_BALANCE');

    // a tier as large as gp.small's disk that costs less
    const admin = await adminSession(t);
    const types = (await t.app.inject({ method: 'GET', url: '/api/backoffice/node/tier-types', headers: { cookie: admin.cookie } })).json().data;
    const cheap = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/tier/create',
      headers: { cookie: admin.cookie },
      payload: { name: `cheap-${Date.now()}`, tier_type_id: types[0].id, cpu: 1, memory_mb: 512, disk_gb: 25, cpu_limit: 50, location_id: 1 },
    });
    assert.equal(cheap.statusCode, 201, cheap.body);
    await insertPrice(t, `tier:${cheap.json().data.id}`, '36500', '2029-12-31T00:00:00Z');
    assert.equal((await preview(poor.cookie, vm.id, cheap.json().data.id)).json().data.monthly_difference, -36500);
    const cheaper = await resize(poor.cookie, vm.id, { tier_id: cheap.json().data.id });
    assert.equal(cheaper.statusCode, 200, cheaper.body);
    await vmJobsDone(t);
    assert.equal((await getVm(t, poor.cookie, vm.id)).memory_mb, 512);

    await t.container.services.compute.suspendCustomerVms(poor.id, 'balance below zero');
    await vmJobsDone(t);
    const suspended = await resize(poor.cookie, vm.id, { tier_id: medium });
    assert.equal(suspended.statusCode, 409);
    assert.equal(suspended.json().code, 'VM_SUSPENDED');
  });

  test('a resize the datacenter refuses leaves the VM in Error; retry resizes it and it ends Running', async () => {
    const c = await fundedCustomer();
    const vm = await runningVm(c.cookie);
    simulator(t).failNext('resize', 1, 'no room on the hypervisor');
    assert.equal((await resize(c.cookie, vm.id, { tier_id: medium })).statusCode, 200);
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, vm.id);
    assert.equal(failed.status, 'Error');
    assert.deepEqual(failed.error, { action: 'resize', message: 'no room on the hypervisor' });
    assert.equal(failed.tier_id, small);
    assert.deepEqual((await openMeters(vm.id)).map((m) => m.price_key)[0], `tier:${small}`, 'still charged at the old tier');

    const retry = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } });
    assert.equal(retry.statusCode, 200, retry.body);
    assert.deepEqual([retry.json().data.status, retry.json().data.pending_action], ['Running', 'resize']);
    await vmJobsDone(t);
    const after = await getVm(t, c.cookie, vm.id);
    assert.deepEqual([after.status, after.tier_id, after.error], ['Running', medium, null]);
  });

  test('charging: the hour of the change is split between the two tiers, to the second, in exact money', async () => {
    clock.set(new Date(START + 2 * HOUR));
    const c = await fundedCustomer();
    const vm = await runningVm(c.cookie, { public_ip: false, name: 'split-1' });
    clock.set(new Date(START + 2 * HOUR + 20 * 60_000 + 30_000)); // 12:20:30: 1230 s on gp.small, 2370 s on gp.medium
    const resized = await resize(await loginCustomer(t, c.email, c.password), vm.id, { tier_id: medium });
    assert.equal(resized.statusCode, 200, resized.body);
    await vmJobsDone(t);
    clock.set(new Date(START + 3 * HOUR + 5 * 60_000));
    await t.container.services.charging.runHourly();

    const records = await queryRows<{ price_key: string; seconds: number; hourly_price: string; amount: string }>(
      t.container.db,
      sql`select m.price_key, u.seconds, u.hourly_price::text, u.amount::text from usage_records u join meters m on m.id = u.meter_id
          where u.customer_id = ${c.id} and u.hour = ${new Date(START + 2 * HOUR).toISOString()}::timestamptz order by m.id`,
    );
    assert.deepEqual(records, [
      { price_key: `tier:${small}`, seconds: 1230, hourly_price: '100.000000', amount: '34.166667' },
      { price_key: `tier:${medium}`, seconds: 2370, hourly_price: '200.000000', amount: '131.666667' },
    ]);
    const charges = (await ledgerOf(t, c.id)).filter((l) => l.type === BalanceLogType.Charge);
    assert.deepEqual(charges.map((l) => l.amount), ['-165.83'], 'whole cents; 0.003334 carried to the next hour');

    const cookie = await loginCustomer(t, c.email, c.password);
    const view = await t.app.inject({ method: 'GET', url: '/api/billing/usage/hours', headers: { cookie } });
    assert.equal(view.statusCode, 200, view.body);
    const [hour] = view.json().data;
    assert.equal(hour.hour, new Date(START + 2 * HOUR).toISOString());
    assert.equal(hour.amount, 165.83);
    assert.equal(hour.usage_amount, 165.833334);
    assert.deepEqual(
      hour.lines.map((l: { description: string; seconds: number; amount: number }) => [l.description, l.seconds, l.amount]),
      [
        ['VM split-1 (gp.small)', 1230, 34.166667],
        ['VM split-1 (gp.medium)', 2370, 131.666667],
      ],
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresOnly } from '../helpers/database.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { countDatacenterCalls } from '../helpers/datacenter-calls.js';

let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp();
  tierId = await seededTier(t);
});
after(() => t.close());

async function fundedCustomer(overrides: Record<string, unknown> = {}) {
  const c = await customerSession(t, overrides);
  await fund(t, c.id);
  return c;
}

describe('VM lifecycle', () => {
  test('create → Running with a public IP, stop → Stopped, start → Running, delete → Deleted (IP back in the pool)', async () => {
    const c = await fundedCustomer();
    const res = await createVm(t, c.cookie, { name: 'web-1', location_id: 1, tier_id: tierId });
    assert.equal(res.statusCode, 201, res.body);
    const vm = res.json().data;
    assert.equal(vm.status, 'Creating');
    assert.equal(vm.pending_action, 'create');
    assert.equal(vm.os, 'ubuntu-24.04');
    assert.match(vm.public_ip, /^198\.18\.1\.\d+$/);
    await vmJobsDone(t);
    let now = await getVm(t, c.cookie, vm.id);
    assert.equal(now.status, 'Running');
    assert.equal(now.pending_action, null);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.running, true);

    const usage = await t.app.inject({ method: 'GET', url: '/api/customer/resource', headers: { cookie: c.cookie } });
    assert.equal(usage.json().data.current_vm, 1);
    assert.equal(usage.json().data.current_ip, 1);

    const stop = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    assert.equal(stop.statusCode, 200, stop.body);
    assert.equal(stop.json().data.pending_action, 'stop');
    // a second stop while the first is under way is refused
    const again = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    assert.equal(again.statusCode, 409);
    await vmJobsDone(t);
    now = await getVm(t, c.cookie, vm.id);
    assert.equal(now.status, 'Stopped');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.running, false);

    const stopStopped = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    assert.equal(stopStopped.statusCode, 409);
    assert.equal(stopStopped.json().code, 'INVALID_VM_STATE');

    const start = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/start`, headers: { cookie: c.cookie } });
    assert.equal(start.statusCode, 200, start.body);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.id}`, headers: { cookie: c.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().data.status, 'Deleting');
    await vmJobsDone(t);
    now = await getVm(t, c.cookie, vm.id);
    assert.equal(now.status, 'Deleted');
    assert.equal(now.public_ip, null);
    assert.ok(now.deleted_at);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`), undefined);

    const list = await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: c.cookie } });
    assert.equal(list.json().meta.total, 0, 'Deleted VMs are left out of the list');
    const all = await t.app.inject({ method: 'GET', url: '/api/compute/vm?include_deleted=true', headers: { cookie: c.cookie } });
    assert.equal(all.json().meta.total, 1);
    const occupation = await t.container.services.compute.ipOccupation();
    assert.equal(occupation.find((o) => o.location_id === 1)?.total, 253);
    const usageAfter = await t.app.inject({ method: 'GET', url: '/api/customer/resource', headers: { cookie: c.cookie } });
    assert.deepEqual([usageAfter.json().data.current_vm, usageAfter.json().data.current_ip], [0, 0]);
  });

  test('a block storage volume is reserved on a storage machine and released at delete', async () => {
    const c = await fundedCustomer();
    const storage = await t.app.inject({ method: 'GET', url: '/api/compute/block-storage-tiers?location_id=1', headers: { cookie: c.cookie } });
    assert.equal(storage.statusCode, 200, storage.body);
    const st = storage.json().data[0];
    assert.ok(st.monthly_price_per_gb > 0);
    const res = await createVm(t, c.cookie, { name: 'db-1', location_id: 1, tier_id: tierId, block_storage_tier_id: st.id, block_storage_gb: 50, os: 'debian-12' });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().data.block_storage, { tier_id: st.id, size_gb: 50 });
    await vmJobsDone(t);
    const admin = await adminSession(t);
    const detail = await t.app.inject({ method: 'GET', url: `/api/backoffice/compute/vm/${res.json().data.id}`, headers: { cookie: admin.cookie } });
    const machineId = detail.json().data.block_storage_machine_id;
    const used = async () => {
      const m = await t.app.inject({ method: 'GET', url: '/api/backoffice/storage/blocks', headers: { cookie: admin.cookie } });
      return m.json().data.find((x: { id: number }) => x.id === machineId).used_gb as number;
    };
    const before = await used();
    assert.ok(before >= 50);
    await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${res.json().data.id}`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal(await used(), before - 50);
  });

  test('input checks: unknown tier, inactive location, unknown fields, size without a storage tier', async () => {
    const c = await fundedCustomer();
    assert.equal((await createVm(t, c.cookie, { name: 'x', location_id: 1, tier_id: 999999 })).json().code, 'TIER_UNAVAILABLE');
    assert.equal((await createVm(t, c.cookie, { name: 'x', location_id: 3, tier_id: tierId })).json().code, 'LOCATION_UNAVAILABLE');
    assert.equal((await createVm(t, c.cookie, { name: 'x', location_id: 1, tier_id: tierId, colour: 'red' })).statusCode, 400);
    assert.equal((await createVm(t, c.cookie, { name: 'x', location_id: 1, tier_id: tierId, os: 'windows-95' })).statusCode, 400);
    assert.equal((await createVm(t, c.cookie, { name: 'x', location_id: 1, tier_id: tierId, block_storage_gb: 20 })).statusCode, 400);
  });
});

describe('money and quotas', () => {
  test('a prepaid customer whose balance is below zero cannot create a VM; at zero, or postpaid, they can', async () => {
    const poor = await customerSession(t);
    await t.container.db.transaction((tx) =>
      t.container.services.wallet.debit(tx, { customerId: poor.id, type: 'BalanceLogCharge', amount: '0.01', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: `neg-${poor.id}`, description: 'test debt' }),
    );
    const res = await createVm(t, poor.cookie, { name: 'a', location_id: 1, tier_id: tierId });
    assert.equal(res.statusCode, 402, res.body);
    assert.equal(res.json().code, 'INSUFFICIENT_BALANCE');
    // "must not be below zero" (one rule for every billable resource): zero is enough
    const zero = await customerSession(t);
    assert.equal((await createVm(t, zero.cookie, { name: 'a', location_id: 1, tier_id: tierId })).statusCode, 201);
    const postpaid = await customerSession(t, { billingType: 'POSTPAID' });
    assert.equal((await createVm(t, postpaid.cookie, { name: 'a', location_id: 1, tier_id: tierId })).statusCode, 201);
    await vmJobsDone(t);
  });

  test('20 parallel creates against a vm_limit of 3 end with exactly 3 VMs', async () => {
    const c = await fundedCustomer({ vmLimit: 3, publicIpLimit: 10 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createVm(t, c.cookie, { name: `burst-${i}`, location_id: 1, tier_id: tierId })));
    const codes = answers.map((r) => r.statusCode);
    assert.equal(codes.filter((s) => s === 201).length, 3, JSON.stringify(codes));
    assert.ok(answers.filter((r) => r.statusCode !== 201).every((r) => r.statusCode === 409 && ['QUOTA_EXCEEDED', 'CONCURRENT_UPDATE'].includes(r.json().code)));
    const ips = answers.filter((r) => r.statusCode === 201).map((r) => r.json().data.public_ip);
    assert.equal(new Set(ips).size, 3, 'distinct addresses');
    await vmJobsDone(t);
    const usage = await t.app.inject({ method: 'GET', url: '/api/customer/resource', headers: { cookie: c.cookie } });
    assert.equal(usage.json().data.current_vm, 3);
  });

  test('two API processes creating at once still hold vm_limit and never hand out one address twice (PostgreSQL)', postgresOnly('two API processes need one PostgreSQL database'), async () => {
    const second = await buildTestApp({ sameDatabaseAs: t, worker: false });
    try {
      const c = await fundedCustomer({ vmLimit: 4, publicIpLimit: 10 });
      const d = await fundedCustomer({ vmLimit: 4, publicIpLimit: 10 });
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => {
          const app = i % 2 === 0 ? t : second;
          const who = i % 4 < 2 ? c : d;
          return createVm(app, who.cookie, { name: `two-${i}`, location_id: 1, tier_id: tierId });
        }),
      );
      const created = answers.filter((r) => r.statusCode === 201).map((r) => r.json().data);
      assert.equal(created.length, 8, JSON.stringify(answers.map((r) => r.statusCode)));
      // which process wins the row lock is up to timing; what matters is that both served every request
      assert.ok(
        answers.every((r) => r.statusCode === 201 || (r.statusCode === 409 && ['QUOTA_EXCEEDED', 'CONCURRENT_UPDATE'].includes(r.json().code))),
        'both processes accept the session and answer created or over the limit',
      );
      const [row] = await queryRows<{ n: number; ips: number }>(
        t.container.db,
        sql`select count(*)::int as n, count(distinct public_ip)::int as ips from vms where location_id = 1 and public_ip is not null`,
      );
      assert.equal(row!.n, row!.ips, 'no address held twice');
      await vmJobsDone(t);
    } finally {
      await second.close();
    }
  });

  test('the public IP limit holds under parallel creates too; VMs without an address are still counted by vm_limit', async () => {
    const c = await fundedCustomer({ vmLimit: 10, publicIpLimit: 2 });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createVm(t, c.cookie, { name: `ip-${i}`, location_id: 2, tier_id: tierId })));
    assert.equal(answers.filter((r) => r.statusCode === 201).length, 2);
    const noIp = await createVm(t, c.cookie, { name: 'private-only', location_id: 2, tier_id: tierId, public_ip: false });
    assert.equal(noIp.statusCode, 201, noIp.body);
    assert.equal(noIp.json().data.public_ip, null);
    await vmJobsDone(t);
  });
});

describe('tiers seen from compute', () => {
  test('a hidden tier is refused for a new VM while running VMs on it are untouched (they stop and start)', async () => {
    const admin = await adminSession(t);
    const c = await fundedCustomer();
    const mediumId = await seededTier(t, 'gp.medium');
    const vm = (await createVm(t, c.cookie, { name: 'keeps-running', location_id: 1, tier_id: mediumId })).json().data;
    await vmJobsDone(t);
    const hide = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/tier/${mediumId}/toggle-status`, headers: { cookie: admin.cookie } });
    assert.equal(hide.statusCode, 200, hide.body);
    assert.equal(hide.json().data.is_visible, false);
    try {
      const refused = await createVm(t, c.cookie, { name: 'new', location_id: 1, tier_id: mediumId });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().code, 'TIER_UNAVAILABLE');
      const catalog = await t.app.inject({ method: 'GET', url: '/api/compute/tiers?location_id=1', headers: { cookie: c.cookie } });
      assert.ok(!catalog.json().data.some((x: { id: number }) => x.id === mediumId), 'not in the catalog');
      assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
      await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
      await vmJobsDone(t);
      const start = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/start`, headers: { cookie: c.cookie } });
      assert.equal(start.statusCode, 200, start.body);
      await vmJobsDone(t);
      assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
    } finally {
      await t.app.inject({ method: 'PATCH', url: `/api/backoffice/tier/${mediumId}/toggle-status`, headers: { cookie: admin.cookie } });
    }
  });

  test('the catalog lists the offered tiers with hourly = monthly / 730 (6 decimals)', async () => {
    const c = await customerSession(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/compute/tiers?location_id=1', headers: { cookie: c.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    const small = res.json().data.find((x: { id: number }) => x.id === tierId);
    assert.ok(small);
    assert.equal(small.hourly_price, Number((small.monthly_price / 730).toFixed(6)));
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/compute/tiers', headers: { cookie: c.cookie } })).statusCode, 400);
    const inactive = await t.app.inject({ method: 'GET', url: '/api/compute/tiers?location_id=3', headers: { cookie: c.cookie } });
    assert.deepEqual(inactive.json().data, []);
  });
});

describe('datacenter failures', () => {
  test('a failed create ends in Error with the reason, and a retry brings it to Running', async () => {
    const c = await fundedCustomer();
    simulator(t).failNext('create', 1, 'hypervisor unreachable');
    const vm = (await createVm(t, c.cookie, { name: 'flaky', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, vm.id);
    assert.equal(failed.status, 'Error');
    assert.deepEqual(failed.error, { action: 'create', message: 'hypervisor unreachable' });
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/start`, headers: { cookie: c.cookie } })).statusCode, 409);
    const retry = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } });
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.json().data.status, 'Creating');
    await vmJobsDone(t);
    const ok = await getVm(t, c.cookie, vm.id);
    assert.equal(ok.status, 'Running');
    assert.equal(ok.error, null);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } })).statusCode, 409);
  });

  test('a failed stop leaves Error; retry stops it; a VM in Error can be deleted', async () => {
    const c = await fundedCustomer();
    const vm = (await createVm(t, c.cookie, { name: 'stubborn', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    simulator(t).failNext('stop');
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Error');
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Stopped');
    simulator(t).failNext('start');
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/start`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Error');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.id}`, headers: { cookie: c.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Deleted');
  });

  test('no hypervisor room: the create ends in Error, and succeeds on retry once room is made', async () => {
    const c = await fundedCustomer();
    const sim = simulator(t);
    sim.setHypervisors(2, [{ name: 'tiny', vcpuTotal: 0, memoryMbTotal: 0 }]);
    const vm = (await createVm(t, c.cookie, { name: 'no-room', location_id: 2, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    assert.match((await getVm(t, c.cookie, vm.id)).error.message, /no hypervisor/);
    sim.setHypervisors(2, [{ name: 'big', vcpuTotal: 512, memoryMbTotal: 2_000_000 }]);
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
  });

  test('a repeated job does nothing more (idempotent tasks)', async () => {
    const c = await fundedCustomer();
    const vm = (await createVm(t, c.cookie, { name: 'once', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    const calls = countDatacenterCalls(t.container.datacenter);
    await t.container.lifecycle.run('vm', vm.id);
    await t.container.lifecycle.run('vm', vm.id);
    const now = await getVm(t, c.cookie, vm.id);
    assert.equal(now.status, 'Running');
    assert.equal(now.sync.state, 'synced');
    assert.equal(calls.total(), 0, 'no datacenter call for a change already applied');
  });

  test('a failed call shows the same sync shape as every resource: state failed, last_error, no automatic retry for a VM', async () => {
    const c = await fundedCustomer();
    simulator(t).failNext('create', 1, 'no image');
    const vm = (await createVm(t, c.cookie, { name: 'shape', location_id: 1, tier_id: tierId })).json().data;
    assert.equal(vm.sync.state, 'pending');
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, vm.id);
    assert.equal(failed.sync.state, 'failed');
    assert.equal(failed.sync.last_error, 'no image');
    assert.equal(failed.sync.attempts, 1);
    assert.equal(failed.sync.next_retry_at, null, 'a VM waits for POST retry');
    assert.equal(await t.container.lifecycle.sweep(), 0, 'the sweep leaves it alone');
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/retry`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    const ok = await getVm(t, c.cookie, vm.id);
    assert.deepEqual([ok.status, ok.sync.state, ok.sync.last_error, ok.sync.attempts], ['Running', 'synced', null, 0]);
  });
});

describe('never stuck', () => {
  test('a VM whose job was lost gets it queued again by the sweep', async () => {
    const c = await fundedCustomer();
    const vm = (await createVm(t, c.cookie, { name: 'lost-job', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    // a stop whose job vanished: the change was recorded 20 minutes ago, and no job exists
    await t.container.db.execute(sql`update vms set task = 'stop' where id = ${vm.id}`);
    await t.container.db.execute(
      sql`update resource_lifecycle set desired_generation = desired_generation + 1, due_at = now() - interval '15 minutes' where kind = 'vm' and resource_id = ${vm.id}`,
    );
    assert.equal((await getVm(t, c.cookie, vm.id)).sync.state, 'pending');
    assert.equal(await t.container.lifecycle.sweep(), 1);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Stopped');
    assert.equal(await t.container.lifecycle.sweep(), 0);
  });
});

describe('isolation', () => {
  test("another customer's VM is a 404 for every verb", async () => {
    const owner = await fundedCustomer();
    const other = await fundedCustomer();
    const vm = (await createVm(t, owner.cookie, { name: 'mine', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    const h = { cookie: other.cookie };
    for (const [method, url] of [
      ['GET', `/api/compute/vm/${vm.id}`],
      ['POST', `/api/compute/vm/${vm.id}/start`],
      ['POST', `/api/compute/vm/${vm.id}/stop`],
      ['POST', `/api/compute/vm/${vm.id}/retry`],
      ['DELETE', `/api/compute/vm/${vm.id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: h });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: h });
    assert.equal(list.json().meta.total, 0);
    assert.equal((await getVm(t, owner.cookie, vm.id)).status, 'Running');
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/compute/vm/${vm.id}` })).statusCode, 401);
  });
});

describe('suspension (the charging side calls it)', () => {
  test('suspendCustomerVms stops running VMs as Suspended; resumeCustomerVms starts them again; stopped ones come back Stopped', async () => {
    const c = await fundedCustomer();
    const a = (await createVm(t, c.cookie, { name: 'run', location_id: 1, tier_id: tierId })).json().data;
    const b = (await createVm(t, c.cookie, { name: 'idle', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    await t.app.inject({ method: 'POST', url: `/api/compute/vm/${b.id}/stop`, headers: { cookie: c.cookie } });
    await vmJobsDone(t);
    const compute = t.container.services.compute;
    assert.equal(await compute.suspendCustomerVms(c.id, 'balance below zero'), 2);
    await vmJobsDone(t);
    const sa = await getVm(t, c.cookie, a.id);
    assert.equal(sa.status, 'Suspended');
    assert.equal(sa.suspend_reason, 'balance below zero');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${a.id}`)?.running, false);
    const start = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${a.id}/start`, headers: { cookie: c.cookie } });
    assert.equal(start.statusCode, 409);
    assert.equal(start.json().code, 'VM_SUSPENDED');
    assert.equal(await compute.suspendCustomerVms(c.id, 'again'), 0, 'a second call changes nothing');

    assert.equal(await compute.resumeCustomerVms(c.id), 2);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, a.id)).status, 'Running');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${a.id}`)?.running, true);
    const sb = await getVm(t, c.cookie, b.id);
    assert.equal(sb.status, 'Stopped');
    assert.equal(sb.suspend_reason, null);
  });
});

describe('backoffice', () => {
  test('support lists VMs with filters and reads one; the permission is required', async () => {
    const c = await fundedCustomer();
    const vm = (await createVm(t, c.cookie, { name: 'support-me', location_id: 2, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    const support = await adminSession(t, { role: 'Admin Support' });
    const list = await t.app.inject({ method: 'GET', url: `/api/backoffice/compute/vm?customer_id=${c.id}&status=Running&location_id=2`, headers: { cookie: support.cookie } });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.total, 1);
    assert.equal(list.json().data[0].customer_id, c.id);
    const one = await t.app.inject({ method: 'GET', url: `/api/backoffice/compute/vm/${vm.id}`, headers: { cookie: support.cookie } });
    assert.equal(one.statusCode, 200);
    assert.ok(one.json().data.external_id);
    assert.ok(one.json().data.hypervisor);
    const search = await t.app.inject({ method: 'GET', url: `/api/backoffice/compute/vm?search=${one.json().data.public_ip}`, headers: { cookie: support.cookie } });
    assert.equal(search.json().data[0].id, vm.id);
    const sales = await adminSession(t, { role: 'Admin Sales' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/compute/vm', headers: { cookie: sales.cookie } })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/compute/vm?status=Bogus', headers: { cookie: support.cookie } })).statusCode, 400);
  });
});

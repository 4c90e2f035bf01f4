/**
 * An account suspended while a snapshot of one of its VMs is being taken: the suspension takes
 * the VM over (its task becomes `suspend`), and the snapshot must still end Available or Failed
 * with a reason, never stay Creating; a restore taken over the same way ends done or failed, never
 * stays asked for. The lifecycle is run by hand (no worker), so the order of
 * the suspension and the snapshot task is the test's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { fund, seededTier, simulator } from '../helpers/compute.js';
import { createCustomer } from '../helpers/money.js';
import { VM_KIND } from '../../src/modules/compute/index.js';
import { SNAPSHOT_KIND } from '../../src/modules/snapshots/index.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

async function runningVm(): Promise<{ customerId: number; vmId: number }> {
  const c = await createCustomer(t);
  await fund(t, c.id);
  const vm = await t.container.services.compute.create(c.id, { name: 'db-1', location_id: 1, tier_id: await seededTier(t) });
  await t.container.lifecycle.run(VM_KIND, vm.id);
  return { customerId: c.id, vmId: vm.id };
}

const vmRow = async (id: number) => (await queryRows<{ status: string; task: string | null }>(t.container.db, sql`select status, task from vms where id = ${id}`))[0]!;
const openMeters = async (snapshotId: number) =>
  (await queryRows(t.container.db, sql`select 1 from meters where resource_type = 'snapshot' and resource_id = ${String(snapshotId)} and stopped_at is null`)).length;

test('suspended before the snapshot task ran: the snapshot ends Failed with the reason, nothing billed; the VM is suspended and the snapshot can be deleted', async () => {
  const { customerId, vmId } = await runningVm();
  const { snapshots, compute } = t.container.services;
  const s = await snapshots.create(customerId, vmId, { name: 'nightly' });
  assert.equal(s.status, 'Creating');
  assert.equal(await compute.suspendCustomerVms(customerId, 'negative_balance'), 1);
  assert.equal((await vmRow(vmId)).task, 'suspend', 'the suspension took the VM over');

  await t.container.lifecycle.run(VM_KIND, vmId);
  const after = await snapshots.get(customerId, s.id);
  assert.equal(after.status, 'Failed');
  assert.equal(after.error, 'the account was suspended before the snapshot was taken');
  assert.equal(await openMeters(s.id), 0, 'nothing is billed');
  assert.equal(simulator(t).snapshots.held.has(`snap-${s.id}`), false, 'nothing was taken');
  assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null });

  const deleted = await snapshots.delete(customerId, s.id);
  assert.equal(deleted.status, 'Deleting');
  await t.container.lifecycle.run(SNAPSHOT_KIND, s.id);
  assert.equal((await snapshots.list(customerId, { includeDeleted: true }, { page: 1, limit: 10 })).items[0]!.status, 'Deleted');
});

test('suspended while the datacenter takes the snapshot: the snapshot ends Available (billed from then) though the VM task was taken over; the VM ends suspended', async () => {
  const { customerId, vmId } = await runningVm();
  const { snapshots, compute } = t.container.services;
  const dc = simulator(t).snapshots;
  const take = dc.takeSnapshot.bind(dc);
  // the suspension arrives while the copy is being made
  dc.takeSnapshot = async (spec) => {
    assert.equal(await compute.suspendCustomerVms(customerId, 'negative_balance'), 1);
    return take(spec);
  };
  try {
    const s = await snapshots.create(customerId, vmId, { name: 'in flight' });
    await t.container.lifecycle.run(VM_KIND, vmId);
    const after = await snapshots.get(customerId, s.id);
    assert.equal(after.status, 'Available', JSON.stringify(after));
    assert.equal(after.consistency, 'crash');
    assert.ok(after.sizeGb! >= 1);
    assert.equal(await openMeters(s.id), 1, 'billed from the instant it was taken');
    assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null }, 'the suspension was carried out after the snapshot');
  } finally {
    dc.takeSnapshot = take;
  }
});

test('the datacenter refuses the snapshot while a suspension comes: Failed with the datacenter’s reason, the VM suspended', async () => {
  const { customerId, vmId } = await runningVm();
  const { snapshots, compute } = t.container.services;
  const dc = simulator(t).snapshots;
  const take = dc.takeSnapshot.bind(dc);
  dc.takeSnapshot = async (spec) => {
    await compute.suspendCustomerVms(customerId, 'negative_balance');
    simulator(t).failNext('snapshot', 1, 'the storage pool is full');
    return take(spec);
  };
  try {
    const s = await snapshots.create(customerId, vmId, { name: 'refused' });
    await t.container.lifecycle.run(VM_KIND, vmId);
    const after = await snapshots.get(customerId, s.id);
    assert.equal(after.status, 'Failed');
    assert.equal(after.error, 'the storage pool is full');
    assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null });
  } finally {
    dc.takeSnapshot = take;
  }
});

// ---- restores

const restoreFailures = (customerId: number) =>
  queryRows<{ data: Record<string, unknown> }>(t.container.db, sql`select data from webhook_events where customer_id = ${customerId} and type = 'snapshot.restore_failed' order by id`);
const pendingRestores = async (vmId: number) => (await queryRows(t.container.db, sql`select 1 from vm_snapshot_restores where vm_id = ${vmId}`)).length;

/** A Running VM with an Available snapshot of it. */
async function vmWithSnapshot(): Promise<{ customerId: number; vmId: number; snapshotId: number }> {
  const { customerId, vmId } = await runningVm();
  // events are written only for a subscriber
  await t.container.services.webhooks.createEndpoint(customerId, { url: 'https://hooks.example.com/platform', event_types: ['*'] });
  const s = await t.container.services.snapshots.create(customerId, vmId, { name: 'known good' });
  await t.container.lifecycle.run(VM_KIND, vmId);
  assert.equal((await t.container.services.snapshots.get(customerId, s.id)).status, 'Available');
  return { customerId, vmId, snapshotId: s.id };
}

test('suspended before the restore task ran: the restore ends failed with the reason (snapshot.restore_failed), the disks untouched; the snapshot is free again', async () => {
  const { customerId, vmId, snapshotId } = await vmWithSnapshot();
  const { snapshots, compute } = t.container.services;
  await snapshots.restore(customerId, snapshotId);
  assert.equal((await snapshots.get(customerId, snapshotId)).restoring, true);
  assert.equal(await compute.suspendCustomerVms(customerId, 'negative_balance'), 1);
  assert.equal((await vmRow(vmId)).task, 'suspend', 'the suspension took the VM over');

  await t.container.lifecycle.run(VM_KIND, vmId);
  assert.equal((await snapshots.get(customerId, snapshotId)).restoring, false, 'the restore is no longer under way');
  assert.equal(await pendingRestores(vmId), 0);
  assert.deepEqual((await restoreFailures(customerId)).map((e) => e.data), [{ snapshot_id: snapshotId, name: 'known good', vm_id: vmId, error: 'the account was suspended before the restore ran' }]);
  assert.equal(simulator(t).snapshots.held.get(`snap-${snapshotId}`)!.restores, 0, 'nothing was written');
  assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null });

  const deleted = await snapshots.delete(customerId, snapshotId);
  assert.equal(deleted.status, 'Deleting', 'the snapshot is no longer in use');
});

test('suspended while the datacenter restores: the restore is done (no failure told), the VM ends suspended', async () => {
  const { customerId, vmId, snapshotId } = await vmWithSnapshot();
  const { snapshots, compute } = t.container.services;
  const dc = simulator(t).snapshots;
  const restore = dc.restoreSnapshot.bind(dc);
  dc.restoreSnapshot = async (spec) => {
    assert.equal(await compute.suspendCustomerVms(customerId, 'negative_balance'), 1);
    return restore(spec);
  };
  try {
    await snapshots.restore(customerId, snapshotId);
    await t.container.lifecycle.run(VM_KIND, vmId);
    assert.equal(dc.held.get(`snap-${snapshotId}`)!.restores, 1, 'the disks were written');
    assert.equal((await snapshots.get(customerId, snapshotId)).restoring, false);
    assert.equal(await pendingRestores(vmId), 0);
    assert.equal((await restoreFailures(customerId)).length, 0);
    assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null }, 'the suspension was carried out after the restore');
  } finally {
    dc.restoreSnapshot = restore;
  }
});

test('the datacenter refuses the restore while a suspension comes: failed with the datacenter’s reason, the VM suspended, not in Error', async () => {
  const { customerId, vmId, snapshotId } = await vmWithSnapshot();
  const { snapshots, compute } = t.container.services;
  const dc = simulator(t).snapshots;
  const restore = dc.restoreSnapshot.bind(dc);
  dc.restoreSnapshot = async (spec) => {
    await compute.suspendCustomerVms(customerId, 'negative_balance');
    simulator(t).failNext('restore_snapshot', 1, 'the snapshot file is unreadable');
    return restore(spec);
  };
  try {
    await snapshots.restore(customerId, snapshotId);
    await t.container.lifecycle.run(VM_KIND, vmId);
    assert.equal((await snapshots.get(customerId, snapshotId)).restoring, false);
    assert.deepEqual((await restoreFailures(customerId)).map((e) => e.data.error), ['the snapshot file is unreadable']);
    assert.deepEqual(await vmRow(vmId), { status: 'Suspended', task: null });
  } finally {
    dc.restoreSnapshot = restore;
  }
});

test('a VM left in Error by a refused restore is deleted: the restore ends failed (the VM was deleted), the snapshot is free again', async () => {
  const { customerId, vmId, snapshotId } = await vmWithSnapshot();
  const { snapshots, compute } = t.container.services;
  simulator(t).failNext('restore_snapshot', 1, 'the snapshot file is unreadable');
  await snapshots.restore(customerId, snapshotId);
  await t.container.lifecycle.run(VM_KIND, vmId);
  assert.equal((await vmRow(vmId)).status, 'Error');
  assert.equal((await snapshots.get(customerId, snapshotId)).restoring, true, 'kept for the VM’s retry');

  await compute.delete(customerId, vmId);
  await t.container.lifecycle.run(VM_KIND, vmId);
  assert.equal((await vmRow(vmId)).status, 'Deleted');
  assert.equal((await snapshots.get(customerId, snapshotId)).restoring, false);
  assert.deepEqual((await restoreFailures(customerId)).map((e) => e.data.error), ['the VM was deleted before the restore ran']);
  assert.equal((await snapshots.delete(customerId, snapshotId)).status, 'Deleting');
});

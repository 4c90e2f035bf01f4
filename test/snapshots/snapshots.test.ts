import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  tierId = await seededTier(t);
});
after(() => t.close());

type Customer = Awaited<ReturnType<typeof customerSession>>;

const api = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });

/** A funded customer with a webhook endpoint (events are written only for subscribers) and a Running VM. */
async function runningVm(body: Record<string, unknown> = {}): Promise<{ c: Customer; id: number }> {
  const c = await customerSession(t);
  await fund(t, c.id);
  const hook = await api(c.cookie, 'POST', '/api/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook', event_types: ['*'] });
  assert.equal(hook.statusCode, 201, hook.body);
  const res = await createVm(t, c.cookie, { name: 'app-1', location_id: 1, tier_id: tierId, ...body });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(t);
  return { c, id: res.json().data.id };
}

async function snapshot(c: Customer, vmId: number, payload: Record<string, unknown> = { name: 'before upgrade' }) {
  const res = await api(c.cookie, 'POST', `/api/compute/vm/${vmId}/snapshots`, payload);
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data as { id: number; status: string };
}

/** Holds the simulated datacenter's `call` of snapshots until `release` (the VM stays busy meanwhile). */
function hold(call: 'takeSnapshot' | 'restoreSnapshot'): { release: () => void } {
  const target = simulator(t).snapshots as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const original = target[call]!;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  target[call] = async (...a: unknown[]) => {
    await gate;
    return original.apply(simulator(t).snapshots, a);
  };
  return {
    release: () => {
      target[call] = original;
      release();
    },
  };
}

const events = (customerId: number, type: string) =>
  queryRows<{ data: Record<string, unknown> }>(t.container.db, sql`select data from webhook_events where customer_id = ${customerId} and type = ${type} order by id`);
const meters = (snapshotId: number) =>
  queryRows<{ price_key: string; quantity: string; closed: boolean }>(
    t.container.db,
    sql`select price_key, quantity::text as quantity, stopped_at is not null as closed from meters where resource_type = 'snapshot' and resource_id = ${String(snapshotId)}`,
  );

describe('taking a snapshot', () => {
  test('a Running VM: Creating (the VM busy meanwhile), then Available with its size and crash consistency; billed by its own meter; snapshot.completed', async () => {
    const { c, id } = await runningVm();
    const held = hold('takeSnapshot');
    const created = await api(c.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, { name: '  before upgrade ' });
    assert.equal(created.statusCode, 201, created.body);
    const s = created.json().data;
    assert.deepEqual([s.status, s.name, s.include_volume, s.vm_id, s.size_gb, s.consistency], ['Creating', 'before upgrade', false, id, null, null]);
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action], ['Running', 'snapshot']);
    for (const url of ['reboot', 'rebuild', 'stop']) {
      const busy = await api(c.cookie, 'POST', `/api/compute/vm/${id}/${url}`);
      assert.equal(busy.json().code, 'VM_BUSY', url);
    }
    const again = await api(c.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, { name: 'second' });
    assert.equal(again.json().code, 'VM_BUSY');
    held.release();
    await vmJobsDone(t);
    const done = (await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data;
    assert.equal(done.status, 'Available');
    assert.equal(done.consistency, 'crash');
    assert.ok(done.size_bytes > 0);
    assert.equal(done.size_gb, Math.ceil(done.size_bytes / 1024 ** 3));
    assert.equal(done.disk_gb, vm.disk_gb);
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);
    const component = await t.container.services.pricing.componentByCode('snapshot_gb');
    assert.deepEqual(await meters(s.id), [{ price_key: `component:${component.id}`, quantity: `${done.size_gb}.000000`, closed: false }]);
    assert.deepEqual((await events(c.id, 'snapshot.completed')).map((e) => e.data), [{ snapshot_id: s.id, name: 'before upgrade', vm_id: id, size_gb: done.size_gb, consistency: 'crash' }]);
    // listed for the VM and for the customer
    const ofVm = (await api(c.cookie, 'GET', `/api/compute/vm/${id}/snapshots`)).json();
    assert.deepEqual(ofVm.data.map((x: { id: number }) => x.id), [s.id]);
    assert.equal(ofVm.meta.total, 1);
    assert.deepEqual((await api(c.cookie, 'GET', '/api/compute/snapshots')).json().data.map((x: { id: number }) => x.id), [s.id]);
  });

  test('a guest with an agent gives application consistency; the volume is included when asked (409 NO_VOLUME without one)', async () => {
    const storage = (await api((await customerSession(t)).cookie, 'GET', '/api/compute/block-storage-tiers?location_id=1')).json().data[0];
    const { c, id } = await runningVm({ block_storage_tier_id: storage.id, block_storage_gb: 20 });
    const machine = [...simulator(t).hosts.machines.values()].find((m) => m.reference === `vm-${id}`)!;
    machine.agent = true;
    const s = await snapshot(c, id, { name: 'with data', include_volume: true });
    await vmJobsDone(t);
    const done = (await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data;
    assert.deepEqual([done.status, done.consistency, done.include_volume, done.volume_gb], ['Available', 'application', true, 20]);
    assert.deepEqual(simulator(t).snapshots.held.get(`snap-${s.id}`)!.disks.map((d) => d.disk), ['boot', 'volume']);
    const other = await runningVm();
    const refused = await api(other.c.cookie, 'POST', `/api/compute/vm/${other.id}/snapshots`, { name: 'x', include_volume: true });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'NO_VOLUME');
    assert.equal((await getVm(t, other.c.cookie, other.id)).pending_action, null, 'nothing changed');
  });

  test('bad input is a 400 and changes nothing; another customer’s VM or snapshot is a 404', async () => {
    const { c, id } = await runningVm();
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'ok', extra: 1 }, { name: 'ok', include_volume: 'yes' }]) {
      const res = await api(c.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const stranger = await customerSession(t);
    await fund(t, stranger.id);
    assert.equal((await api(stranger.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, { name: 'mine' })).statusCode, 404);
    assert.equal((await api(stranger.cookie, 'GET', `/api/compute/vm/${id}/snapshots`)).statusCode, 404);
    for (const [method, url, body] of [
      ['GET', `/api/compute/snapshots/${s.id}`, undefined],
      ['PATCH', `/api/compute/snapshots/${s.id}`, { name: 'stolen' }],
      ['DELETE', `/api/compute/snapshots/${s.id}`, undefined],
      ['POST', `/api/compute/snapshots/${s.id}/restore`, undefined],
    ] as const) {
      assert.equal((await api(stranger.cookie, method, url, body)).statusCode, 404, `${method} ${url}`);
    }
    assert.equal((await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data.name, 'before upgrade');
  });

  test('the datacenter refuses: Failed with its error and snapshot.failed; the VM is untouched and nothing is billed', async () => {
    const { c, id } = await runningVm();
    simulator(t).failNext('snapshot', 1, 'the hypervisor failed to snapshot the machine');
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const failed = (await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data;
    assert.deepEqual([failed.status, failed.error, failed.size_gb], ['Failed', 'the hypervisor failed to snapshot the machine', null]);
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action], ['Running', null]);
    assert.deepEqual(await meters(s.id), []);
    assert.equal((await events(c.id, 'snapshot.failed')).length, 1);
    // a Failed one can be deleted
    assert.equal((await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`)).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).statusCode, 404);
  });

  test('the per-customer snapshot_limit (staff set it) is a 409 QUOTA_EXCEEDED; a suspended account is a 402 and keeps its snapshots', async () => {
    const { c, id } = await runningVm();
    const admin = await adminSession(t, { permissions: ['edit_users'] });
    const patched = await api(admin.cookie, 'PATCH', `/api/backoffice/customer/${c.id}`, { snapshot_limit: 1 });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.snapshot_limit, 1);
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const over = await api(c.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, { name: 'two' });
    assert.equal(over.statusCode, 409);
    assert.equal(over.json().code, 'QUOTA_EXCEEDED');
    await t.container.db.execute(sql`update customers set snapshot_limit = 10, suspended_at = now(), suspend_reason = 'POSTPAID_OVERDUE' where id = ${c.id}`);
    const suspended = await api(c.cookie, 'POST', `/api/compute/vm/${id}/snapshots`, { name: 'three' });
    assert.equal(suspended.statusCode, 402);
    assert.equal(suspended.json().code, 'ACCOUNT_SUSPENDED');
    const kept = (await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data;
    assert.equal(kept.status, 'Available');
    assert.equal((await meters(s.id))[0]!.closed, false, 'still billed, as a volume of a suspended account is');
  });
});

describe('rename, delete', () => {
  test('rename; delete → Deleting → Deleted, its meter closed and its files gone; not while it is being taken', async () => {
    const { c, id } = await runningVm();
    const held = hold('takeSnapshot');
    const s = await snapshot(c, id);
    const early = await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`);
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().code, 'INVALID_SNAPSHOT_STATE');
    held.release();
    await vmJobsDone(t);
    const renamed = await api(c.cookie, 'PATCH', `/api/compute/snapshots/${s.id}`, { name: 'golden image' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().data.name, 'golden image');
    assert.equal((await api(c.cookie, 'PATCH', `/api/compute/snapshots/${s.id}`, { name: '' })).statusCode, 400);
    const del = await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`);
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().data.status, 'Deleting');
    await vmJobsDone(t);
    assert.equal((await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).statusCode, 404);
    assert.deepEqual((await meters(s.id)).map((m) => m.closed), [true]);
    assert.equal(simulator(t).snapshots.held.has(`snap-${s.id}`), false);
    assert.deepEqual((await api(c.cookie, 'GET', `/api/compute/vm/${id}/snapshots`)).json().data, []);
  });
});

describe('restore', () => {
  test('restores a Running VM (busy meanwhile, Running after); a Stopped one stays Stopped; the snapshot cannot be deleted meanwhile', async () => {
    const { c, id } = await runningVm();
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const dc = simulator(t);
    const original = dc.snapshots.restoreSnapshot.bind(dc.snapshots);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    dc.snapshots.restoreSnapshot = async (spec) => {
      await gate;
      return original(spec);
    };
    try {
      const res = await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/restore`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.restoring, true);
      const vm = await getVm(t, c.cookie, id);
      assert.deepEqual([vm.status, vm.pending_action], ['Running', 'restore']);
      assert.equal((await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`)).json().code, 'SNAPSHOT_IN_USE');
      assert.equal((await api(c.cookie, 'POST', `/api/compute/vm/${id}/reboot`)).json().code, 'VM_BUSY');
    } finally {
      release();
      dc.snapshots.restoreSnapshot = original;
    }
    await vmJobsDone(t);
    const after = await getVm(t, c.cookie, id);
    assert.deepEqual([after.status, after.pending_action], ['Running', null]);
    assert.equal(dc.snapshots.held.get(`snap-${s.id}`)!.restores, 1);
    assert.equal((await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`)).json().data.restoring, false);

    assert.equal((await api(c.cookie, 'POST', `/api/compute/vm/${id}/stop`)).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/restore`)).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Stopped');
    assert.equal(dc.snapshots.held.get(`snap-${s.id}`)!.restores, 2);
  });

  test('a refused restore is the VM’s Error (failed action restore); retry restores it; a deleted VM’s snapshot is not restored (409 VM_DELETED)', async () => {
    const { c, id } = await runningVm();
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    simulator(t).failNext('restore_snapshot', 1, 'the hypervisor could not be reached; could not restore the machine from its snapshot');
    assert.equal((await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/restore`)).statusCode, 200);
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, id);
    assert.equal(failed.status, 'Error');
    assert.equal(failed.error.action, 'restore');
    assert.match(failed.error.message, /could not restore/);
    const retry = await api(c.cookie, 'POST', `/api/compute/vm/${id}/retry`);
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.json().data.pending_action, 'restore');
    await vmJobsDone(t);
    assert.deepEqual([(await getVm(t, c.cookie, id)).status, simulator(t).snapshots.held.get(`snap-${s.id}`)!.restores], ['Running', 1]);

    assert.equal((await api(c.cookie, 'DELETE', `/api/compute/vm/${id}`)).statusCode, 200);
    await vmJobsDone(t);
    const kept = await api(c.cookie, 'GET', `/api/compute/snapshots/${s.id}`);
    assert.equal(kept.json().data.status, 'Available', 'a snapshot outlives its VM');
    const gone = await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/restore`);
    assert.equal(gone.statusCode, 409);
    assert.equal(gone.json().code, 'VM_DELETED');
  });
});

describe('a new VM from a snapshot', () => {
  test('on a tier whose disk is at least the snapshot’s: Running with the snapshot’s OS; a smaller disk is a 400 DISK_TOO_SMALL', async () => {
    const { c, id } = await runningVm({ tier_id: await seededTier(t, 'gp.medium'), os: 'debian-12' });
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const small = await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/create-vm`, { name: 'copy-1', tier_id: await seededTier(t, 'gp.small') });
    assert.equal(small.statusCode, 400, small.body);
    assert.equal(small.json().code, 'DISK_TOO_SMALL');
    assert.equal((await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/create-vm`, { name: 'copy-1' })).statusCode, 400);
    const made = await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/create-vm`, { name: 'copy-1', tier_id: await seededTier(t, 'gp.large') });
    assert.equal(made.statusCode, 201, made.body);
    const vm = made.json().data;
    assert.deepEqual([vm.status, vm.os, vm.disk_gb, vm.location_id], ['Creating', 'debian-12', 100, 1]);
    const inUse = await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`);
    assert.equal(inUse.json().code, 'SNAPSHOT_IN_USE');
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
    const machine = simulator(t).vmHosts.stateOf(`vm-${vm.id}`)!;
    assert.equal(machine.os, 'debian-12');
    // the snapshot can go once the VM is made; the VM stays
    assert.equal((await api(c.cookie, 'DELETE', `/api/compute/snapshots/${s.id}`)).statusCode, 200);
  });
});

describe('a new VM from a snapshot, where the snapshot is kept', () => {
  test('placed on the hypervisor that keeps the snapshot (not the first with room); a snapshot with a volume gives the new VM that volume, written from it', async () => {
    const storage = (await api((await customerSession(t)).cookie, 'GET', '/api/compute/block-storage-tiers?location_id=1')).json().data[0];
    const { c, id } = await runningVm({ block_storage_tier_id: storage.id, block_storage_gb: 20 });
    // the VM runs on the location's second hypervisor (the first has room too)
    const machine = [...simulator(t).hosts.machines.values()].find((m) => m.reference === `vm-${id}`)!;
    machine.hypervisor = 'hv-1-2';
    const s = await snapshot(c, id, { name: 'with volume', include_volume: true });
    await vmJobsDone(t);
    assert.equal(simulator(t).snapshots.held.get(`snap-${s.id}`)!.hypervisor, 'hv-1-2');

    const made = await api(c.cookie, 'POST', `/api/compute/snapshots/${s.id}/create-vm`, { name: 'copy-2', tier_id: tierId });
    assert.equal(made.statusCode, 201, made.body);
    const vm = made.json().data;
    assert.deepEqual(vm.block_storage, { tier_id: storage.id, size_gb: 20 }, 'a volume of the snapshot’s size, on the storage tier of the VM it was taken of');
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');
    const copy = [...simulator(t).hosts.machines.values()].find((m) => m.reference === `vm-${vm.id}`)!;
    assert.equal(copy.hypervisor, 'hv-1-2', 'where the snapshot is kept');
    assert.equal(copy.volumeGb, 20);
    assert.equal(copy.volumeFrom, `snap-${s.id}`, 'its volume is written from the snapshot');
    const [row] = await queryRows<{ hypervisor: string }>(t.container.db, sql`select hypervisor from vms where id = ${vm.id}`);
    assert.equal(row!.hypervisor, 'hv-1-2');

    // a snapshot of the boot disk alone: the new VM has no volume
    const bootOnly = await snapshot(c, id, { name: 'boot only' });
    await vmJobsDone(t);
    const plain = await api(c.cookie, 'POST', `/api/compute/snapshots/${bootOnly.id}/create-vm`, { name: 'copy-3', tier_id: tierId });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.equal(plain.json().data.block_storage, null);
    await vmJobsDone(t);
    const third = [...simulator(t).hosts.machines.values()].find((m) => m.reference === `vm-${plain.json().data.id}`)!;
    assert.deepEqual([third.hypervisor, third.volumeGb], ['hv-1-2', undefined]);
  });
});

describe('staff', () => {
  test('see a customer’s snapshots (view_compute) and restore on their behalf (operate_compute): audited, the customer told; 403 without', async () => {
    const { c, id } = await runningVm();
    const s = await snapshot(c, id);
    await vmJobsDone(t);
    const viewer = await adminSession(t, { permissions: ['view_compute'] });
    const list = await api(viewer.cookie, 'GET', `/api/backoffice/compute/snapshots?customer_id=${c.id}`);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json().data.map((x: { id: number; customer_id: number }) => [x.id, x.customer_id]), [[s.id, c.id]]);
    assert.equal((await api(viewer.cookie, 'POST', `/api/backoffice/compute/snapshots/${s.id}/restore`)).statusCode, 403);
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);

    const operator = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    const held = hold('restoreSnapshot');
    const res = await api(operator.cookie, 'POST', `/api/backoffice/compute/snapshots/${s.id}/restore`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await api(operator.cookie, 'POST', `/api/backoffice/compute/snapshots/${s.id}/restore`)).json().code, 'VM_BUSY');
    held.release();
    await vmJobsDone(t);
    assert.equal(simulator(t).snapshots.held.get(`snap-${s.id}`)!.restores, 1);
    const audit = await queryRows<{ action: string; actor_id: number }>(t.container.db, sql`select action, actor_id from audit_logs where actor_type = 'admin' and action = 'vm.staff_restore' and target_id = ${String(id)}`);
    assert.deepEqual(audit.map((a) => [a.action, a.actor_id]), [['vm.staff_restore', operator.id]]);
    const told = await queryRows<{ title: string }>(t.container.db, sql`select title from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION'`);
    assert.equal(told.length, 1);
    assert.match(told[0]!.title, /restored from a snapshot/);
    const mails = await queryRows<{ subject: string }>(t.container.db, sql`select subject from mail_outbox where to_address = ${c.email} and template = 'vm_staff_action'`);
    assert.equal(mails.length, 1);
  });
});

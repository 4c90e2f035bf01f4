import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FolderBlobStore } from '../../src/integrations/object-storage/index.js';
import { CHUNK_BYTES, type Manifest } from '../../src/modules/backups/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const clock = new ManualClock('2026-03-10T10:20:00Z');
let t: TestApp;
let tierId: number;
let boss: { cookie: string };
let receiver: WebhookReceiver;
before(async () => {
  t = await buildTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new WebhookReceiver().start();
  tierId = await seededTier(t);
  boss = await adminSession(t);
});
after(async () => {
  await receiver.close();
  await t.close();
});

type Customer = Awaited<ReturnType<typeof customerSession>>;
const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', cookie: string, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
const store = () => t.container.backupStore as FolderBlobStore;
const disks = () => simulator(t).backups;
const workDone = () => queueDrained(t, { queues: ['backups.work'] });

async function runningVm(name = 'db-1'): Promise<{ c: Customer; id: number; ext: string }> {
  const c = await customerSession(t);
  await fund(t, c.id);
  const hook = await req('POST', c.cookie, '/api/webhooks/endpoints', { url: receiver.url(`/c${c.id}`), event_types: ['backup.completed', 'backup.failed'] });
  assert.equal(hook.statusCode, 201, hook.body);
  const res = await createVm(t, c.cookie, { name, location_id: 1, tier_id: tierId });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(t);
  const id = res.json().data.id as number;
  const [row] = await queryRows<{ external_id: string }>(t.container.db, sql`select external_id from vms where id = ${id}`);
  return { c, id, ext: row!.external_id };
}

async function enable(c: Customer, id: number, body: Record<string, unknown> = { enabled: true }) {
  const res = await req('PUT', c.cookie, `/api/compute/vm/${id}/backups/plan`, body);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

async function backupNow(c: Customer, id: number) {
  const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups`);
  assert.equal(res.statusCode, 202, res.body);
  await workDone();
  return (await backupsOf(c, id)).backups.find((b: { id: string }) => b.id === res.json().data.id);
}

async function backupsOf(c: Customer, id: number) {
  const res = await req('GET', c.cookie, `/api/compute/vm/${id}/backups`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** Makes every waiting retry due now (as if its back-off had passed). */
async function retryNow(): Promise<void> {
  await t.container.db.execute(sql`update vm_backups set next_attempt_at = ${clock.now().toISOString()}::timestamptz where status = 'pending'`);
}

const ofVm = async (id: number) => (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from vm_backups where vm_id = ${id}`))[0]!.n;

/** Holds `target[method]` until `release` (the work waits there meanwhile); release puts it back. */
function hold(target: object, method: string): { release: () => void } {
  const obj = target as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const original = obj[method]!;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  obj[method] = async (...a: unknown[]) => {
    await gate;
    return original.apply(target, a);
  };
  return {
    release: () => {
      obj[method] = original;
      open();
    },
  };
}

const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => !f.includes('.tmp-')) : []);

describe('the backup plan', () => {
  test('off by default; switched on with its window, it shows its price (20% of the tier) and next run; bad input changes nothing', async () => {
    const { c, id } = await runningVm();
    const first = await backupsOf(c, id);
    assert.equal(first.plan.enabled, false);
    assert.equal(first.plan.keep_last, 7);
    assert.equal(first.plan.price_share_percent, 20);
    const [tierPrice] = await queryRows<{ monthly: string }>(t.container.db, sql`select monthly_price::text as monthly from price_versions where price_key = ${`tier:${tierId}`} and location_id = 1 order by effective_from desc limit 1`);
    assert.equal(String(first.plan.monthly_price), String(Number((Number(tierPrice!.monthly) * 0.2).toFixed(2))));

    for (const bad of [{ enabled: true, frequency: 'weekly' }, { enabled: true, hour: 24 }, { enabled: true, weekday: 3 }, { enabled: 'yes' }, { enabled: true, extra: 1 }]) {
      const res = await req('PUT', c.cookie, `/api/compute/vm/${id}/backups/plan`, bad);
      assert.equal(res.statusCode, 400, JSON.stringify(bad));
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    assert.equal((await backupsOf(c, id)).plan.enabled, false, 'nothing changed');

    const plan = await enable(c, id, { enabled: true, frequency: 'weekly', weekday: 3, hour: 4 });
    assert.equal(plan.enabled, true);
    assert.equal(plan.next_run_at, '2026-03-11T04:00:00.000Z');
    const other = await customerSession(t);
    assert.equal((await req('GET', other.cookie, `/api/compute/vm/${id}/backups`)).statusCode, 404);
    assert.equal((await req('PUT', other.cookie, `/api/compute/vm/${id}/backups/plan`, { enabled: false })).statusCode, 404);
    const [meter] = await queryRows<{ quantity: string; price_key: string }>(t.container.db, sql`select quantity::text, price_key from meters where resource_type = 'vm_backup' and resource_id = ${String(id)} and stopped_at is null`);
    assert.equal(Number(meter!.quantity), 0.2);
    assert.equal(meter!.price_key, `tier:${tierId}`);
    await enable(c, id, { enabled: false });
    const open = await queryRows(t.container.db, sql`select 1 from meters where resource_type = 'vm_backup' and resource_id = ${String(id)} and stopped_at is null`);
    assert.equal(open.length, 0, 'switched off, the meter closes');
  });
});

describe('backups and restores (simulated datacenter, the local store)', () => {
  test('a backup stores compressed chunks and its manifest; a second one after a small change sends few bytes; webhook backup.completed', async () => {
    const { c, id, ext } = await runningVm('web');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('boot sector of web'));
    disks().writeBytes(ext, 5 * CHUNK_BYTES + 100, randomBytes(2 * CHUNK_BYTES));
    disks().writeBytes(ext, 5 * CHUNK_BYTES + 100 + 2 * CHUNK_BYTES, Buffer.alloc(CHUNK_BYTES, 7));
    const b1 = await backupNow(c, id);
    assert.equal(b1.status, 'completed', JSON.stringify(b1));
    assert.ok(b1.disk_bytes >= 1024 ** 3, 'the disk size is the tier disk');
    assert.ok(b1.sent_bytes > 0 && b1.stored_bytes > 0);
    assert.ok(existsSync(path.join(store().location, 'backups', `${b1.id}.json`)), 'the manifest is stored');
    const chunksAfterFirst = files(path.join(store().location, 'chunks')).length;
    assert.equal(chunksAfterFirst, 5, 'the boot chunk and the written region (chunks 5 to 8)');

    disks().writeBytes(ext, 200, Buffer.from('a small change'));
    const b2 = await backupNow(c, id);
    assert.equal(b2.status, 'completed');
    assert.ok(b2.sent_bytes < b1.sent_bytes / 100, `second backup sent ${b2.sent_bytes} bytes (first ${b1.sent_bytes})`);
    assert.equal(files(path.join(store().location, 'chunks')).length, chunksAfterFirst + 1, 'only the changed chunk is new');
    const events = await queryRows<{ type: string; data: { backup_id: string } }>(t.container.db, sql`select type, data from webhook_events where customer_id = ${c.id} and type like 'backup.%'`);
    assert.deepEqual(events.map((e) => e.type), ['backup.completed', 'backup.completed']);
  });

  test('restore onto the same VM: held (409 for other changes meanwhile), stopped, disk rewritten, started; audited as the customer', async () => {
    const { c, id, ext } = await runningVm('app');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('version-1'));
    const b = await backupNow(c, id);
    disks().writeBytes(ext, 0, Buffer.from('version-2'));
    disks().writeBytes(ext, 7 * CHUNK_BYTES, Buffer.from('written later'));

    const stop = hold(simulator(t).vmHosts, 'stopVm');
    try {
      const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`);
      assert.equal(res.statusCode, 202, res.body);
      assert.equal((await getVm(t, c.cookie, id)).pending_action, 'restore_backup');
      const busy = await req('POST', c.cookie, `/api/compute/vm/${id}/reboot`);
      assert.equal(busy.statusCode, 409);
      assert.equal(busy.json().code, 'VM_BUSY');
      const twice = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`);
      assert.equal(twice.statusCode, 409);
    } finally {
      stop.release();
    }
    await workDone();
    const vm = await getVm(t, c.cookie, id);
    assert.equal(vm.status, 'Running');
    assert.equal(vm.pending_action, null);
    assert.equal(disks().readBytes(ext, 0, 9).toString(), 'version-1');
    assert.ok(disks().readBytes(ext, 7 * CHUNK_BYTES, 13).equals(Buffer.alloc(13)), 'what was written after the backup is gone');
    const { restores } = await backupsOf(c, id);
    assert.equal(restores[0].status, 'completed');
    const [act] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where actor_type = 'customer' and actor_id = ${c.id} and action = 'backup.restored'`);
    assert.equal(act!.n, 1);
  });

  test('a new VM from a backup of a deleted VM: a tier too small is refused; the new VM runs with the backup on its disk', async () => {
    const { c, id, ext } = await runningVm('old');
    await enable(c, id);
    disks().writeBytes(ext, 3 * CHUNK_BYTES, Buffer.from('the file that must survive'));
    const b = await backupNow(c, id);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } });
    assert.ok(del.statusCode < 300, del.body);
    await vmJobsDone(t);
    const open = await queryRows(t.container.db, sql`select 1 from meters where resource_type = 'vm_backup' and resource_id = ${String(id)} and stopped_at is null`);
    assert.equal(open.length, 0, 'the deleted VM pays no backups');
    const all = (await req('GET', c.cookie, '/api/compute/backups')).json().data;
    assert.ok(all.some((x: { id: string }) => x.id === b.id), 'the backup of the deleted VM is listed');

    await t.container.db.execute(sql`update tiers set disk_gb = 1 where id = ${tierId}`);
    try {
      const small = await req('POST', c.cookie, `/api/compute/backups/${b.id}/vm`, { name: 'new', tier_id: tierId });
      assert.equal(small.statusCode, 400, small.body);
      assert.equal(small.json().code, 'DISK_TOO_SMALL');
    } finally {
      await t.container.db.execute(sql`update tiers set disk_gb = ${Math.round(b.disk_bytes / 1024 ** 3)} where id = ${tierId}`);
    }
    const made = await req('POST', c.cookie, `/api/compute/backups/${b.id}/vm`, { name: 'new', tier_id: tierId });
    assert.equal(made.statusCode, 202, made.body);
    const { vm_id: newId, restore } = made.json().data;
    assert.equal(restore.status, 'waiting');
    await vmJobsDone(t);
    await workDone();
    clock.advance(20_000); // it looked while the VM was Creating, and waits 15 s between looks
    await t.container.services.backupWork.requeueDue();
    await workDone();
    const r = (await req('GET', c.cookie, `/api/compute/backups/restores/${restore.id}`)).json().data;
    assert.equal(r.status, 'completed', JSON.stringify(r));
    const [row] = await queryRows<{ external_id: string }>(t.container.db, sql`select external_id from vms where id = ${newId}`);
    assert.equal(disks().readBytes(row!.external_id, 3 * CHUNK_BYTES, 26).toString(), 'the file that must survive');
    assert.equal((await getVm(t, c.cookie, newId)).status, 'Running');
  });

  test('a failed upload is retried with its reason shown; after the last attempt it is failed (webhook backup.failed)', async () => {
    const { c, id, ext } = await runningVm('flaky');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('data'));
    store().failNext = 1000;
    try {
      const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups`);
      await workDone();
      const b = (await backupsOf(c, id)).backups[0];
      assert.equal(b.status, 'pending');
      assert.match(b.reason, /backup storage could not be reached/);
      assert.equal(b.attempts, 1);
      assert.ok(!existsSync(path.join(store().location, 'backups', `${res.json().data.id}.json`)), 'no manifest for a failed backup');
      // the storage comes back: the retry (the sweep queues it when its time came) succeeds
      store().failNext = 0;
      await retryNow();
      await t.container.services.backupWork.requeueDue();
      await workDone();
      const ok = (await backupsOf(c, id)).backups[0];
      assert.equal(ok.status, 'completed');
      assert.equal(ok.attempts, 2);
      assert.equal(ok.reason, null);

      store().failNext = 1000;
      const last = (await req('POST', c.cookie, `/api/compute/vm/${id}/backups`)).json().data.id as string;
      for (let i = 0; i < 8; i++) {
        await workDone();
        await retryNow();
        await t.container.services.backupWork.requeueDue();
      }
      await workDone();
      const failed = (await backupsOf(c, id)).backups.find((x: { id: string }) => x.id === last);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.attempts, 6);
      const events = await queryRows<{ type: string }>(t.container.db, sql`select type from webhook_events where customer_id = ${c.id} and type = 'backup.failed'`);
      assert.equal(events.length, 1);
    } finally {
      store().failNext = 0;
    }
  });

  test('the schedule takes one backup per slot, after the plan was switched on; keep-last deletes the oldest; the sweep frees their chunks', async () => {
    clock.set('2026-03-10T10:20:00Z');
    const { c, id, ext } = await runningVm('sched');
    await enable(c, id, { enabled: true, frequency: 'daily', hour: 11 });
    const work = t.container.services.backupWork;
    await work.schedule();
    assert.equal(await ofVm(id), 0, "today's 11:00 has not come");
    clock.set('2026-03-10T11:02:00Z');
    await t.container.db.execute(sql`update backup_policy set keep_last = 2`);
    try {
      for (let day = 0; day < 3; day++) {
        disks().writeBytes(ext, 0, Buffer.from(`day ${day}`));
        await work.schedule();
        await work.schedule();
        assert.equal(await ofVm(id), day + 1, 'one per slot');
        await workDone();
        clock.advance(24 * 3600_000);
      }
      // the customer's session is long gone on this clock: the service answers as the routes do
      const list = (await t.container.services.backups.list(c.id, id)).backups.map((b) => ({ id: b.id, status: b.status, trigger: b.trigger }));
      assert.equal(list.length, 2, 'keep-last 2');
      assert.ok(list.every((b: { status: string; trigger: string }) => b.status === 'completed' && b.trigger === 'scheduled'));
      const [gone] = await queryRows<{ id: string }>(t.container.db, sql`select id::text from vm_backups where vm_id = ${id} and status = 'deleted'`);
      assert.ok(!existsSync(path.join(store().location, 'backups', `${gone!.id}.json`)), 'its manifest is removed');
      // the first day's chunk is referenced by no manifest now; once older than the safety age, the sweep deletes it
      const dir = path.join(store().location, 'chunks');
      const before = files(dir).length;
      const old = new Date(Date.now() - 7 * 3600_000);
      for (const f of files(dir)) utimesSync(path.join(dir, f), old, old);
      const swept = await work.sweepStore();
      assert.ok(swept.chunks >= 1, JSON.stringify(swept));
      assert.equal(files(dir).length, before - swept.chunks);
      for (const b of list) {
        const r = await t.container.services.backups.restore(c.id, id, b.id);
        await workDone();
        assert.equal((await t.container.services.backups.restoreOf(c.id, r.id)).status, 'completed', 'the kept backups are whole after the sweep');
      }
      assert.ok(statSync(dir).isDirectory());
    } finally {
      await t.container.db.execute(sql`update backup_policy set keep_last = 7`);
    }
  });
});

describe('deleting one backup', () => {
  test('refused while it is being made and while a restore of it runs (409); deleted, its manifest goes at once and the sweep frees its chunks; another customer gets 404', async () => {
    const { c, id, ext } = await runningVm('del');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('kept by the second backup'));
    disks().writeBytes(ext, 9 * CHUNK_BYTES, randomBytes(1000));
    const first = await backupNow(c, id);
    disks().writeBytes(ext, 9 * CHUNK_BYTES, randomBytes(1000)); // only the first backup refers to the old chunk 9
    const second = await backupNow(c, id);
    assert.equal(first.status, 'completed');
    assert.equal(second.status, 'completed');

    // a backup being made: its copy waits on a gate
    const copy = hold(disks(), 'copyDisk');
    try {
      const making = (await req('POST', c.cookie, `/api/compute/vm/${id}/backups`)).json().data.id as string;
      const busy = await req('DELETE', c.cookie, `/api/compute/backups/${making}`);
      assert.equal(busy.statusCode, 409, busy.body);
      assert.equal(busy.json().code, 'BACKUP_IN_PROGRESS');
    } finally {
      copy.release();
    }
    await workDone();

    // a restore of the first backup under way: the VM's stop waits on a gate
    const stop = hold(simulator(t).vmHosts, 'stopVm');
    try {
      assert.equal((await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${first.id}/restore`)).statusCode, 202);
      const inUse = await req('DELETE', c.cookie, `/api/compute/backups/${first.id}`);
      assert.equal(inUse.statusCode, 409, inUse.body);
      assert.equal(inUse.json().code, 'BACKUP_IN_USE');
    } finally {
      stop.release();
    }
    await workDone();

    const other = await customerSession(t);
    assert.equal((await req('DELETE', other.cookie, `/api/compute/backups/${first.id}`)).statusCode, 404, "another customer's backup");
    assert.equal((await req('DELETE', c.cookie, '/api/compute/backups/not-a-uuid')).statusCode, 400);

    const manifest = path.join(store().location, 'backups', `${first.id}.json`);
    assert.ok(existsSync(manifest));
    const only = (JSON.parse(readFileSync(manifest, 'utf8')) as Manifest).chunks.find((ch) => ch.index === 9)!.hash;
    const del = await req('DELETE', c.cookie, `/api/compute/backups/${first.id}`);
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().data.status, 'deleted');
    assert.ok(!existsSync(manifest), 'its manifest is removed at once');
    assert.equal((await req('DELETE', c.cookie, `/api/compute/backups/${first.id}`)).statusCode, 404, 'gone');
    const listed = (await backupsOf(c, id)).backups.map((b: { id: string }) => b.id);
    assert.ok(!listed.includes(first.id) && listed.includes(second.id));
    assert.ok(!(await req('GET', c.cookie, '/api/compute/backups')).json().data.some((b: { id: string }) => b.id === first.id));
    const restoreGone = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${first.id}/restore`);
    assert.equal(restoreGone.statusCode, 404);
    const [act] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where actor_type = 'customer' and actor_id = ${c.id} and action = 'backup.deleted'`);
    assert.equal(act!.n, 1, 'in the account activity');

    // the sweep frees the chunk only the deleted backup referred to; the second backup stays whole
    const dir = path.join(store().location, 'chunks');
    const old = new Date(Date.now() - 7 * 3600_000);
    for (const f of files(dir)) utimesSync(path.join(dir, f), old, old);
    const swept = await t.container.services.backupWork.sweepStore();
    assert.ok(swept.chunks >= 1, JSON.stringify(swept));
    assert.ok(!existsSync(path.join(dir, only)), 'the chunk only the deleted backup referred to is freed');
    const r = await t.container.services.backups.restore(c.id, id, second.id);
    await workDone();
    assert.equal((await t.container.services.backups.restoreOf(c.id, r.id)).status, 'completed', 'the other backup is whole after the sweep');
    assert.equal(disks().readBytes(ext, 0, 25).toString(), 'kept by the second backup');
  });
});

describe('restores against a suspension and keep-last', () => {
  const machineRunning = (ext: string) => simulator(t).hosts.machines.get(ext)?.running;

  test('the account suspended while a restore onto the VM runs: the restore completes, the VM stays off and ends Suspended', async () => {
    const { c, id, ext } = await runningVm('susp-same');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('version-1'));
    const b = await backupNow(c, id);
    disks().writeBytes(ext, 0, Buffer.from('version-2'));

    const write = hold(disks(), 'writeDisk');
    let restoreId: string;
    try {
      const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`);
      assert.equal(res.statusCode, 202, res.body);
      restoreId = res.json().data.id;
      assert.equal(await t.container.services.compute.suspendCustomerVms(c.id, 'negative_balance'), 1);
      await vmJobsDone(t);
    } finally {
      write.release();
    }
    await workDone();
    // the restore's end hands the VM over to the suspend, whose job stops it
    await vmJobsDone(t);
    const r = await t.container.services.backups.restoreOf(c.id, restoreId);
    assert.equal(r.status, 'completed', JSON.stringify(r));
    assert.equal(disks().readBytes(ext, 0, 9).toString(), 'version-1');
    const [vm] = await queryRows<{ status: string; task: string | null }>(t.container.db, sql`select status, task from vms where id = ${id}`);
    assert.deepEqual(vm, { status: 'Suspended', task: null });
    assert.equal(machineRunning(ext), false, 'a suspended VM is not started by the restore');
  });

  test('the account suspended before a new VM from a backup is held: the restore waits, and once the account is resumed it writes the backup onto the new VM', async () => {
    const { c, id, ext } = await runningVm('susp-new');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('x'));
    const b = await backupNow(c, id);
    // the restore looks while the new VM is still being made, and waits
    const create = hold(simulator(t).vmHosts, 'createVm');
    let restore: { id: string };
    try {
      const made = await req('POST', c.cookie, `/api/compute/backups/${b.id}/vm`, { name: 'from-backup', tier_id: tierId });
      assert.equal(made.statusCode, 202, made.body);
      restore = made.json().data.restore;
      await workDone();
    } finally {
      create.release();
    }
    await vmJobsDone(t);
    assert.equal(await t.container.services.compute.suspendCustomerVms(c.id, 'negative_balance'), 2);
    await vmJobsDone(t);
    clock.advance(20_000);
    await t.container.services.backupWork.requeueDue();
    await workDone();
    const waiting = await t.container.services.backups.restoreOf(c.id, restore.id);
    assert.equal(waiting.status, 'waiting', JSON.stringify(waiting));
    const [made] = await queryRows<{ id: number; status: string; external_id: string }>(t.container.db, sql`select id, status, external_id from vms where customer_id = ${c.id} and name = 'from-backup'`);
    assert.equal(made!.status, 'Suspended');
    // resumed: the new VM runs, and the restore holds it and writes the backup onto its disk
    assert.equal(await t.container.services.compute.resumeCustomerVms(c.id), 2);
    await vmJobsDone(t);
    clock.advance(20_000);
    await t.container.services.backupWork.requeueDue();
    await workDone();
    await vmJobsDone(t);
    const r = await t.container.services.backups.restoreOf(c.id, restore.id);
    assert.equal(r.status, 'completed', JSON.stringify(r));
    assert.equal(disks().readBytes(made!.external_id, 0, 1).toString(), 'x');
    assert.equal((await getVm(t, c.cookie, made!.id)).status, 'Running');
  });

  test('keep-last does not delete the backup a restore reads from; the next backup prunes it once the restore is done', async () => {
    const { c, id, ext } = await runningVm('keep');
    await enable(c, id);
    await t.container.db.execute(sql`update backup_policy set keep_last = 2`);
    try {
      // keep-last orders by completion: each backup a minute after the last
      disks().writeBytes(ext, 0, Buffer.from('oldest'));
      const oldest = await backupNow(c, id);
      clock.advance(60_000);
      disks().writeBytes(ext, 0, Buffer.from('middle'));
      await backupNow(c, id);
      clock.advance(60_000);
      disks().writeBytes(ext, 0, Buffer.from('newest'));

      const write = hold(disks(), 'writeDisk');
      let restoreId: string;
      try {
        const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${oldest.id}/restore`);
        assert.equal(res.statusCode, 202, res.body);
        restoreId = res.json().data.id;
        // a third backup while the restore reads the oldest: past keep-last 2, but the oldest is in use
        clock.advance(60_000);
        const third = await req('POST', c.cookie, `/api/compute/vm/${id}/backups`);
        assert.equal(third.statusCode, 202, third.body);
        // the worker's slots wait for the held restore: this attempt runs here (its queued job then finds it done)
        await t.container.services.backupWork.runBackup(third.json().data.id);
        assert.equal((await t.container.services.backups.list(c.id, id)).backups.find((x) => x.id === third.json().data.id)?.status, 'completed');
        const kept = (await t.container.services.backups.list(c.id, id)).backups;
        assert.equal(kept.find((x) => x.id === oldest.id)?.status, 'completed', 'the oldest is kept while it is restored from');
        assert.equal(kept.filter((x) => x.status === 'completed').length, 3);
        assert.ok(existsSync(path.join(store().location, 'backups', `${oldest.id}.json`)), 'its manifest stays');
      } finally {
        write.release();
      }
      await workDone();
      assert.equal((await t.container.services.backups.restoreOf(c.id, restoreId)).status, 'completed');
      assert.equal(disks().readBytes(ext, 0, 6).toString(), 'oldest', 'the restore read its whole source');

      clock.advance(60_000);
      await backupNow(c, id);
      const after = (await t.container.services.backups.list(c.id, id)).backups;
      assert.equal(after.length, 2, 'the next prune catches up: keep-last 2');
      assert.ok(!after.some((x) => x.id === oldest.id));
    } finally {
      await t.container.db.execute(sql`update backup_policy set keep_last = 7`);
    }
  });
});

describe('money and staff', () => {
  test('charged hourly as the share of the VM (tier price × 20%), exactly once per hour', async () => {
    clock.set('2026-03-12T09:00:00Z');
    const { c, id } = await runningVm('paid');
    await enable(c, id);
    clock.set('2026-03-12T11:10:00Z');
    await t.container.services.charging.runHourly();
    await t.container.services.charging.runHourly();
    const rows = await queryRows<{ hour: string; amount: string; hourly_price: string; quantity: string }>(
      t.container.db,
      sql`select u.hour::text, u.amount::text, u.hourly_price::text, u.quantity::text from usage_records u join meters m on m.id = u.meter_id where m.resource_type = 'vm_backup' and m.resource_id = ${String(id)} order by u.hour`,
    );
    assert.equal(rows.length, 2, 'two complete hours, once each');
    for (const r of rows) assert.equal(Number(r.amount).toFixed(6), (Number(r.hourly_price) * 0.2).toFixed(6));
    const usage = await req('GET', c.cookie, '/api/billing/usage');
    if (usage.statusCode === 200) assert.match(usage.body, /vm_backup|Backups of VM/);
  });

  test('staff see usage per customer and location, set the share (audited), and restore on the customer\'s behalf (audited, customer told)', async () => {
    boss = await adminSession(t); // the clock moved past the first session's life
    const { c, id, ext } = await runningVm('staffed');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('staff-kept'));
    const b = await backupNow(c, id);
    const usage = await req('GET', boss.cookie, `/api/backoffice/backups/usage?customer_id=${c.id}`);
    assert.equal(usage.statusCode, 200, usage.body);
    assert.deepEqual(usage.json().data.map((r: { location_id: number; backups: number; vms_enabled: number }) => [r.location_id, r.backups, r.vms_enabled]), [[1, 1, 1]]);
    assert.ok(usage.json().data[0].stored_bytes > 0);

    const bad = await req('PATCH', boss.cookie, '/api/backoffice/backups/policy', { price_share_percent: 0 });
    assert.equal(bad.statusCode, 400);
    const pol = await req('PATCH', boss.cookie, '/api/backoffice/backups/policy', { price_share_percent: 25, keep_last: 5 });
    assert.equal(pol.statusCode, 200, pol.body);
    assert.deepEqual(pol.json().data, { price_share_percent: 25, keep_last: 5 });
    const [meter] = await queryRows<{ quantity: string }>(t.container.db, sql`select quantity::text from meters where resource_type = 'vm_backup' and resource_id = ${String(id)} and stopped_at is null`);
    assert.equal(Number(meter!.quantity), 0.25);
    await req('PATCH', boss.cookie, '/api/backoffice/backups/policy', { price_share_percent: 20, keep_last: 7 });

    disks().writeBytes(ext, 0, Buffer.from('overwrite!'));
    const r = await req('POST', boss.cookie, `/api/backoffice/backups/${b.id}/restore`, {});
    assert.equal(r.statusCode, 202, r.body);
    await workDone();
    assert.equal(disks().readBytes(ext, 0, 10).toString(), 'staff-kept');
    const [audit] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where actor_type = 'admin' and action = 'backup.staff_restore' and target_id = ${String(id)}`);
    assert.equal(audit!.n, 1);
    const [note] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION'`);
    assert.equal(note!.n, 1);
  });

  test('a suspended account cannot have a stopped VM restored (it would start it): 402, nothing held', async () => {
    const { c, id, ext } = await runningVm('susp');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('x'));
    const b = await backupNow(c, id);
    assert.equal((await req('POST', c.cookie, `/api/compute/vm/${id}/stop`)).statusCode, 200);
    await vmJobsDone(t);
    await t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = 'overdue_invoices' where id = ${c.id}`);
    const res = await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`);
    assert.equal(res.statusCode, 402, res.body);
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);
  });

  test('suspended while a restore writes the disk: Suspended at once, the restore completes and the machine stays off; resumed, it runs the restored disk', async () => {
    const { c, id, ext } = await runningVm('susp-restore');
    await enable(c, id);
    disks().writeBytes(ext, 0, Buffer.from('restored'));
    const b = await backupNow(c, id);
    disks().writeBytes(ext, 0, Buffer.from('changed!'));
    const compute = t.container.services.compute;

    const stop = hold(simulator(t).vmHosts, 'stopVm');
    try {
      assert.equal((await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`)).statusCode, 202);
      assert.equal(await compute.suspendCustomerVms(c.id, 'INSUFFICIENT_BALANCE'), 1);
      const held = await getVm(t, c.cookie, id);
      assert.deepEqual([held.status, held.pending_action], ['Suspended', 'restore_backup'], 'the restore keeps its hold');
    } finally {
      stop.release();
    }
    await workDone();
    await vmJobsDone(t);
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action], ['Suspended', null]);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${id}`)?.running, false, 'not started on a suspended account');
    assert.equal(disks().readBytes(ext, 0, 8).toString(), 'restored');
    assert.equal((await backupsOf(c, id)).restores[0].status, 'completed');

    assert.equal(await compute.resumeCustomerVms(c.id), 1);
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${id}`)?.running, true);
  });

  test('suspended and resumed while a restore writes the disk: the restore ends it Running, as without the suspension', async () => {
    const { c, id } = await runningVm('susp-resume');
    await enable(c, id);
    const b = await backupNow(c, id);
    const compute = t.container.services.compute;
    const stop = hold(simulator(t).vmHosts, 'stopVm');
    try {
      assert.equal((await req('POST', c.cookie, `/api/compute/vm/${id}/backups/${b.id}/restore`)).statusCode, 202);
      await compute.suspendCustomerVms(c.id, 'INSUFFICIENT_BALANCE');
      assert.equal(await compute.resumeCustomerVms(c.id), 1);
      assert.deepEqual(((v) => [v.status, v.pending_action])(await getVm(t, c.cookie, id)), ['Running', 'restore_backup']);
    } finally {
      stop.release();
    }
    await workDone();
    await vmJobsDone(t);
    assert.deepEqual(((v) => [v.status, v.pending_action, v.suspend_reason])(await getVm(t, c.cookie, id)), ['Running', null, null]);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${id}`)?.running, true);
  });
});

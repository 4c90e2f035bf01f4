/**
 * Backups of a real QEMU guest (DATACENTER=libvirt, the small test guest) into the platform's bucket
 * on a real Ceph RADOS Gateway (the test harness's radosgw), through the API: write a word on the
 * guest's disk, back it up, change it a little and back up again (few bytes sent), delete the VM,
 * make a new VM from the backup: the word is there. Faults: radosgw stopped during a backup (it
 * fails with its reason, is retried, and succeeds once radosgw is back); a worker killed in the
 * middle of a backup (no manifest is left for it, the sweep removes its temporary disk copy, and
 * the backup is finished by another worker). Prints the figures docs/benchmarks.md quotes.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { LibvirtDatacenter } from '../../src/integrations/datacenter/index.js';
import { httpGet, libvirtAvailable, removeEverything, testSetup, withLibvirtLock, type TestSetup } from '../../src/integrations/datacenter/libvirt/test-support.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { fund, getVm, seededTier } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { radosgwInstalled, startRadosgw, type Radosgw } from '../helpers/radosgw.js';
import { startWorkerProcess } from '../helpers/worker-process.js';

const available = libvirtAvailable();
const skip = !available.ok ? `libvirt is not available here: ${available.why}` : !radosgwInstalled() ? 'radosgw is not installed' : false;
const BOOT_MS = 240_000;
const BUCKET = 'platform-vm-backups';

let rgw: Radosgw | undefined;

function writeConfig(setup: TestSetup): string {
  setup.input.images = { 'debian-12': setup.input.images.test ?? setup.input.images['debian-12']! };
  const file = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(file, JSON.stringify(setup.input));
  return file;
}

const envOf = (configFile: string) => ({
  DATACENTER: 'libvirt',
  LIBVIRT_CONFIG: configFile,
  OBJECT_STORAGE_PROVIDER: 'ceph',
  OBJECT_STORAGE_ENDPOINT: rgw!.endpoint,
  OBJECT_STORAGE_ACCESS_KEY: rgw!.accessKey,
  OBJECT_STORAGE_SECRET_KEY: rgw!.secretKey,
});

async function objects(prefix: string): Promise<{ key: string; size: number }[]> {
  const s3 = new S3Client({ endpoint: rgw!.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: rgw!.accessKey, secretAccessKey: rgw!.secretKey } });
  try {
    const res = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (res.Contents ?? []).map((o) => ({ key: o.Key!, size: o.Size ?? 0 }));
  } finally {
    s3.destroy();
  }
}

/**
 * Puts 24 MiB of random bytes on the VM's disk at 64 MiB (the guest's data: the test image's own
 * disk is empty): the VM is stopped through the API, written with qemu-io, and started again.
 */
async function seedDisk(t: TestApp, cookie: string, vmId: number, setup: TestSetup): Promise<void> {
  const api = (url: string) => t.app.inject({ method: 'POST', url, headers: { cookie } });
  const state = (want: string) => eventually(async () => ((v) => v.status === want && v.pending_action === null)(await getVm(t, cookie, vmId)), BOOT_MS, 250);
  assert.equal((await api(`/api/compute/vm/${vmId}/stop`)).statusCode, 200);
  await state('Stopped');
  const data = path.join(setup.dirs[1]!, 'random.bin');
  writeFileSync(data, randomBytes(24 * 1024 * 1024));
  const disk = path.join(setup.dirs[0]!, `${setup.prefix}-vm-${vmId}-root.qcow2`);
  const r = spawnSync('qemu-io', ['-f', 'qcow2', '-c', `write -s ${data} 64M 24M`, disk], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal((await api(`/api/compute/vm/${vmId}/start`)).statusCode, 200);
  await state('Running');
}

/** The word at the start of the guest's disk (`set`: written first), over the guest's own HTTP. */
const marker = (ip: string, set?: string) => httpGet(`http://${ip}/cgi-bin/marker${set ? `?set=${set}` : ''}`, 30_000);

before(async () => {
  if (!skip) rgw = await startRadosgw();
});
after(async () => {
  await rgw?.stop();
});

describe('backups of a real guest in the platform bucket on radosgw', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let cookie: string;
  let tierId: number;

  before(async () => {
    setup = testSetup();
    t = await buildTestApp({ db: 'postgres', env: envOf(writeConfig(setup)) });
    assert.ok(t.container.datacenter instanceof LibvirtDatacenter);
    tierId = await seededTier(t);
    const c = await customerSession(t);
    await fund(t, c.id);
    cookie = c.cookie;
  });
  after(async () => {
    await t?.close();
    if (setup) removeEverything(setup);
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t!.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const settled = (id: number) => eventually(async () => ((v) => (v.pending_action === null && v.status !== 'Creating' ? v : undefined))(await getVm(t!, cookie, id)), BOOT_MS, 250);
  const workDone = () => queueDrained(t!, { queues: ['backups.work'] }, 600_000);
  const backupOf = async (vmId: number, id: string) => (await api('GET', `/api/compute/vm/${vmId}/backups`)).json().data.backups.find((b: { id: string }) => b.id === id);
  const retryNow = () => t!.container.db.execute(sql`update vm_backups set next_attempt_at = now() where status = 'pending'`);

  test('write, back up, change a little and back up again (few bytes), radosgw down and back, delete the VM, restore into a new VM: the word is there', () =>
    withLibvirtLock('shared', async () => {
      const made = await api('POST', '/api/compute/vm', { name: 'backed', location_id: 1, tier_id: tierId, os: 'debian-12' });
      assert.equal(made.statusCode, 201, made.body);
      const vmId: number = made.json().data.id;
      const vm = await settled(vmId);
      assert.equal(vm.status, 'Running', JSON.stringify(vm)); // its error says why (a boot timeout on a loaded machine)
      await seedDisk(t!, cookie, vmId, setup);
      assert.equal(await marker(vm.public_ip, 'first-word'), 'first-word');
      assert.equal((await api('PUT', `/api/compute/vm/${vmId}/backups/plan`, { enabled: true, hour: 3 })).statusCode, 200);

      const first = (await api('POST', `/api/compute/vm/${vmId}/backups`)).json().data.id as string;
      await workDone();
      const b1 = await backupOf(vmId, first);
      assert.equal(b1.status, 'completed', JSON.stringify(b1));
      const manifests = await objects('backups/');
      assert.deepEqual(manifests.map((o) => o.key), [`backups/${first}.json`], 'the manifest is in the platform bucket');
      const chunks = await objects('chunks/');
      const chunkBytes = chunks.reduce((n, o) => n + o.size, 0);
      assert.equal(chunkBytes, b1.stored_bytes, 'the chunks in the bucket are what the manifest counts');
      assert.ok(b1.stored_bytes > 24 * 1024 * 1024 && b1.stored_bytes < 30 * 1024 * 1024, `plausible size: ${b1.stored_bytes} for 24 MiB of random data and a marker on a ${b1.disk_bytes}-byte disk`);

      assert.equal(await marker(vm.public_ip, 'second-word'), 'second-word');
      const second = (await api('POST', `/api/compute/vm/${vmId}/backups`)).json().data.id as string;
      await workDone();
      const b2 = await backupOf(vmId, second);
      assert.equal(b2.status, 'completed', JSON.stringify(b2));
      assert.ok(b2.sent_bytes < 64 * 1024 && b2.sent_bytes < b1.sent_bytes / 100, `the second backup sent ${b2.sent_bytes} bytes, the first ${b1.sent_bytes}`);
      console.log(`# figures: first backup ${b1.duration_ms} ms, sent ${b1.sent_bytes} B (stored ${b1.stored_bytes} B, disk ${b1.disk_bytes} B); second after a small change ${b2.duration_ms} ms, sent ${b2.sent_bytes} B`);

      // radosgw stops: the backup fails with its reason and waits for its retry; radosgw back, the retry succeeds
      await rgw!.stopGateway();
      let third: string;
      try {
        third = (await api('POST', `/api/compute/vm/${vmId}/backups`)).json().data.id as string;
        await workDone();
        const failing = await backupOf(vmId, third);
        assert.equal(failing.status, 'pending', JSON.stringify(failing));
        assert.match(failing.reason, /backup storage could not be reached/);
      } finally {
        await rgw!.startGateway();
      }
      await retryNow();
      await t!.container.services.backupWork.requeueDue();
      await workDone();
      const b3 = await backupOf(vmId, third);
      assert.equal(b3.status, 'completed', JSON.stringify(b3));
      assert.equal(b3.attempts, 2);

      // the VM goes; its backups stay and make a new VM
      assert.ok((await api('DELETE', `/api/compute/vm/${vmId}`)).statusCode < 300);
      await eventually(async () => (await queryRows<{ status: string }>(t!.container.db, sql`select status from vms where id = ${vmId}`))[0]!.status === 'Deleted', BOOT_MS, 250);
      const restored = await api('POST', `/api/compute/backups/${b3.id}/vm`, { name: 'from-backup', tier_id: tierId });
      assert.equal(restored.statusCode, 202, restored.body);
      const { vm_id: newId, restore } = restored.json().data;
      const started = Date.now();
      const r = await eventually(
        async () => {
          await t!.container.services.backupWork.requeueDue();
          const now = (await api('GET', `/api/compute/backups/restores/${restore.id}`)).json().data;
          return now.status === 'completed' || now.status === 'failed' ? now : undefined;
        },
        BOOT_MS * 2,
        1000,
      );
      assert.equal(r.status, 'completed', `${JSON.stringify(r)} ${JSON.stringify(await getVm(t!, cookie, newId))}`);
      console.log(`# figures: restore into a new VM (create, then disk written and booted) ${Date.now() - started} ms`);
      const fresh = await settled(newId);
      assert.equal(fresh.status, 'Running');
      assert.equal(await marker(fresh.public_ip), 'second-word', 'the restored disk has the word written before the backup');
    }));
});

describe('a worker killed in the middle of a backup', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let child: ChildProcess | undefined;
  let configFile: string;
  const clock = new ManualClock(new Date());

  before(async () => {
    setup = testSetup();
    configFile = writeConfig(setup);
    t = await buildTestApp({ db: 'postgres', clock, worker: false, env: envOf(configFile) });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    if (setup) removeEverything(setup);
  });

  test('SIGKILL while uploading: no manifest of it, its temporary disk copy removed by the sweep, the backup finished by another worker', () =>
    withLibvirtLock('shared', async () => {
      const c = await customerSession(t!);
      await fund(t!, c.id);
      const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t!.app.inject({ method, url, headers: { cookie: c.cookie }, ...(payload ? { payload } : {}) });
      child = await startWorkerProcess(t!, envOf(configFile));
      const made = await api('POST', '/api/compute/vm', { name: 'killed', location_id: 1, tier_id: await seededTier(t!), os: 'debian-12' });
      assert.equal(made.statusCode, 201, made.body);
      const vmId: number = made.json().data.id;
      await eventually(async () => ((v) => v.status === 'Running' && v.pending_action === null)(await getVm(t!, c.cookie, vmId)), BOOT_MS, 250);
      await seedDisk(t!, c.cookie, vmId, setup);
      assert.equal((await api('PUT', `/api/compute/vm/${vmId}/backups/plan`, { enabled: true })).statusCode, 200);
      const id = (await api('POST', `/api/compute/vm/${vmId}/backups`)).json().data.id as string;
      const imageDir = setup.dirs[0]!;
      const temporary = () => readdirSync(imageDir).filter((f) => f.startsWith(`${setup.prefix}-backup-`));
      // the other worker copies the disk; it dies while the copy is read and uploaded
      await eventually(async () => temporary().some((f) => f.endsWith('.raw')), 120_000, 10);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = undefined;
      assert.ok(temporary().length > 0, 'the dead worker left its temporary copy');
      assert.deepEqual(await objects(`backups/${id}`), [], 'no manifest: the backup does not exist in the store');
      const [row] = await queryRows<{ status: string }>(t!.container.db, sql`select status from vm_backups where id = ${id}::uuid`);
      assert.equal(row!.status, 'running');

      // the dead worker's qemu-img may still be finishing its conversion (SIGKILL does not end it)
      await eventually(async () => spawnSync('pgrep', ['-f', `${setup.prefix}-backup-`]).status !== 0, 300_000, 250);
      // the sweep: temporary copies older than its age are removed (made old here), chunks kept (young)
      const old = new Date(Date.now() - 3 * 3600_000);
      for (const f of temporary()) utimesSync(path.join(imageDir, f), old, old);
      clock.set(new Date(Date.now() + 2 * 3600_000)); // past the dead worker's lease (taken on its own clock)
      const swept = await t!.container.services.backupWork.sweepStore();
      assert.ok(swept.temporary >= 1, JSON.stringify(swept));
      assert.deepEqual(temporary(), [], `the temporary copy is gone (${JSON.stringify(swept)})`);

      // this process takes the backup over once the lease ran out
      await t!.container.startWorker();
      await t!.container.services.backupWork.requeueDue();
      // (the dead worker's pg-boss job stays active until pg-boss expires it: wait on the backup itself)
      const done = await eventually(
        async () => ((r) => (r && r.status !== 'running' && r.status !== 'pending' ? r : undefined))((await queryRows<{ status: string; attempts: number }>(t!.container.db, sql`select status, attempts from vm_backups where id = ${id}::uuid`))[0]),
        600_000,
        500,
      );
      assert.deepEqual({ ...done }, { status: 'completed', attempts: 2 });
      assert.equal((await objects(`backups/${id}`)).length, 1, 'now its manifest exists');
      assert.deepEqual(temporary(), [], 'and no temporary copy is left');
      assert.ok(!existsSync(path.join(imageDir, `${setup.prefix}-backup-x.raw`)));
    }));
});

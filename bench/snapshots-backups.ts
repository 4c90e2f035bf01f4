/**
 * Snapshots and backups of a real guest (DATACENTER=libvirt, the busybox test guest) through the
 * API, the backups stored in the platform bucket on a throw-away Ceph RADOS Gateway started as the
 * tests start it (test/helpers/radosgw.ts, memstore sized for the data). The guest's boot disk is
 * BENCH_DISK_GB (2) GiB with BENCH_DATA_MIB (500) MiB of random data written into it (the VM
 * stopped, the data written with qemu-io, started again). Measured, each from the request to the
 * end the API shows:
 *   1. a snapshot (POST .../snapshots until Available);
 *   2. a restore of it (POST /api/compute/snapshots/{id}/restore until the VM runs again);
 *   3. a first backup: its time (wall, and the backup's own duration_ms), the bytes it sent
 *      (sent_bytes) and what the bucket grew by (listed from radosgw);
 *   4. BENCH_CHANGE_MIB (8) MiB of new random data, then a second backup: the same figures;
 *   5. a restore of the second backup onto the VM (until the restore is completed).
 * Needs root, libvirt and ceph (as the real-guest tests). Slow under TCG: run it once.
 *   npm run bench:backups
 * Leaves no domain, file or daemon behind: the snapshot and the VM are deleted through the API, the test setup
 * removed, radosgw stopped, also when a step fails.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { ListObjectsV2Command, S3Client, type ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { LibvirtDatacenter } from '../src/integrations/datacenter/index.js';
import { removeEverything, testSetup, withLibvirtLock, type TestSetup } from '../src/integrations/datacenter/libvirt/test-support.js';
import { queryRows } from '../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../test/helpers/app.js';
import { fund, getVm, seededTier } from '../test/helpers/compute.js';
import { customerSession } from '../test/helpers/customers.js';
import { radosgwInstalled, startRadosgw, type Radosgw } from '../test/helpers/radosgw.js';
import { machine } from './lib.js';

const MIB = 1024 ** 2;
const DISK_GB = Number(process.env.BENCH_DISK_GB ?? 2);
const DATA_MIB = Number(process.env.BENCH_DATA_MIB ?? 500);
const CHANGE_MIB = Number(process.env.BENCH_CHANGE_MIB ?? 8);
const BUCKET = 'platform-vm-backups';
const WAIT_MS = 30 * 60_000;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bytes = (n: number) => `${n.toLocaleString('en-US')} B (${(n / MIB).toFixed(1)} MiB)`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

if (!radosgwInstalled()) throw new Error('radosgw is not installed');

/** Everything in the bucket under `prefix`: keys and sizes, as radosgw lists them. */
async function listed(rgw: Radosgw, prefix: string): Promise<{ objects: number; bytes: number }> {
  const s3 = new S3Client({ endpoint: rgw.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: rgw.accessKey, secretAccessKey: rgw.secretKey } });
  let objects = 0;
  let total = 0;
  try {
    let token: string | undefined;
    do {
      const res: ListObjectsV2CommandOutput = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
      for (const o of res.Contents ?? []) {
        objects++;
        total += o.Size ?? 0;
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchBucket') return { objects: 0, bytes: 0 };
    throw err;
  } finally {
    s3.destroy();
  }
  return { objects, bytes: total };
}

async function bucket(rgw: Radosgw) {
  const [chunks, manifests] = await Promise.all([listed(rgw, 'chunks/'), listed(rgw, 'backups/')]);
  return { chunks: chunks.objects, bytes: chunks.bytes + manifests.bytes };
}

/** `mib` MiB of random bytes written at `offsetMib` of the stopped VM's boot disk (qemu-io, in 64 MiB writes). */
async function writeRandom(setup: TestSetup, vmId: number, offsetMib: number, mib: number): Promise<void> {
  const disk = path.join(setup.dirs[0]!, `${setup.prefix}-vm-${vmId}-root.qcow2`);
  const data = path.join(setup.dirs[1]!, 'random.bin');
  for (let done = 0; done < mib; done += 64) {
    const n = Math.min(64, mib - done);
    const out = createWriteStream(data);
    out.end(randomBytes(n * MIB));
    await finished(out);
    const r = spawnSync('qemu-io', ['-f', 'qcow2', '-c', `write -s ${data} ${offsetMib + done}M ${n}M`, disk], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`qemu-io: ${r.stderr}`);
  }
  rmSync(data, { force: true });
}

async function main(rgw: Radosgw): Promise<void> {
  const setup = testSetup();
  setup.input.images = { 'debian-12': setup.input.images.test! };
  const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(configFile, JSON.stringify(setup.input));
  const started = new Date().toISOString();
  const loadAtStart = load();
  let t: TestApp | undefined;
  let cookie = '';
  let vmId: number | undefined;
  let snapshotId: number | undefined;
  const out: string[] = [];
  const say = (line: string) => {
    out.push(line);
    console.log(line);
  };
  try {
    t = await buildTestApp({
      db: 'postgres',
      env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile, OBJECT_STORAGE_PROVIDER: 'ceph', OBJECT_STORAGE_ENDPOINT: rgw.endpoint, OBJECT_STORAGE_ACCESS_KEY: rgw.accessKey, OBJECT_STORAGE_SECRET_KEY: rgw.secretKey },
    });
    if (!(t.container.datacenter instanceof LibvirtDatacenter)) throw new Error('not the libvirt datacenter');
    const app = t;
    const tierId = await seededTier(app);
    await app.container.db.execute(sql`update tiers set disk_gb = ${DISK_GB} where id = ${tierId}`);
    const c = await customerSession(app);
    await fund(app, c.id);
    cookie = c.cookie;
    const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const res = await app.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    const vmIs = (id: number, status: string) =>
      eventually(
        async () => {
          const v = await getVm(app, cookie, id);
          if (v.status === 'Error') throw new Error(`VM ${id} in Error: ${JSON.stringify(v.error)}`);
          return v.status === status && v.pending_action === null ? v : undefined;
        },
        WAIT_MS,
        250,
      );
    const backup = async (id: string) => (await api('GET', `/api/compute/vm/${vmId}/backups`)).backups.find((b: { id: string }) => b.id === id);

    const made = await api('POST', '/api/compute/vm', { name: 'bench', location_id: 1, tier_id: tierId, os: 'debian-12' });
    vmId = made.id as number;
    await vmIs(vmId, 'Running');
    await api('POST', `/api/compute/vm/${vmId}/stop`);
    await vmIs(vmId, 'Stopped');
    await writeRandom(setup, vmId, 64, DATA_MIB);
    await api('POST', `/api/compute/vm/${vmId}/start`);
    await vmIs(vmId, 'Running');
    const disk = path.join(setup.dirs[0]!, `${setup.prefix}-vm-${vmId}-root.qcow2`);
    const info = JSON.parse(spawnSync('qemu-img', ['info', '-U', '--output=json', disk], { encoding: 'utf8' }).stdout) as { 'virtual-size': number; 'actual-size': number };
    say(`guest: boot disk ${bytes(info['virtual-size'])} virtual, ${bytes(info['actual-size'])} allocated in its qcow2 overlay (${DATA_MIB} MiB random at 64 MiB)`);

    // 1. snapshot, 2. its restore
    let t0 = performance.now();
    const snap = await api('POST', `/api/compute/vm/${vmId}/snapshots`, { name: 'bench' });
    snapshotId = snap.id as number;
    const taken = await eventually(
      async () => {
        const s = await api('GET', `/api/compute/snapshots/${snap.id}`);
        if (s.status === 'Failed') throw new Error(`snapshot failed: ${s.error}`);
        return s.status === 'Available' ? s : undefined;
      },
      WAIT_MS,
      100,
    );
    const snapshotMs = performance.now() - t0;
    await vmIs(vmId, 'Running');
    say(`snapshot (running guest, POST until Available): ${secs(snapshotMs)}; stored ${bytes(taken.size_bytes)}, ${taken.consistency}-consistent`);
    t0 = performance.now();
    await api('POST', `/api/compute/snapshots/${snap.id}/restore`);
    await vmIs(vmId, 'Running');
    const restoreMs = performance.now() - t0;
    say(`snapshot restore (POST until the VM runs again: shut-down, disk written back, boot): ${secs(restoreMs)}`);

    // 3. first backup, 4. a small change and the second
    await api('PUT', `/api/compute/vm/${vmId}/backups/plan`, { enabled: true, hour: 3 });
    const runBackup = async () => {
      const before = await bucket(rgw);
      const t1 = performance.now();
      const id = (await api('POST', `/api/compute/vm/${vmId}/backups`)).id as string;
      const b = await eventually(
        async () => {
          const row = await backup(id);
          if (row?.status === 'failed') throw new Error(`backup failed: ${row.reason}`);
          return row?.status === 'completed' ? row : undefined;
        },
        WAIT_MS,
        100,
      );
      const wallMs = performance.now() - t1;
      const after = await bucket(rgw);
      const [row] = await queryRows<{ chunks: number }>(app.container.db, sql`select chunks from vm_backups where id = ${id}::uuid`);
      return { b: { ...b, chunks: row!.chunks }, wallMs, grew: after.bytes - before.bytes, newChunks: after.chunks - before.chunks };
    };
    const first = await runBackup();
    say(
      `first backup: ${secs(first.wallMs)} (POST until completed; its own duration ${secs(first.b.duration_ms)}); sent ${bytes(first.b.sent_bytes)}; bucket grew ${bytes(first.grew)} (${first.newChunks} chunks); refers to ${first.b.chunks} chunks, stored ${bytes(first.b.stored_bytes)}`,
    );

    await api('POST', `/api/compute/vm/${vmId}/stop`);
    await vmIs(vmId, 'Stopped');
    await writeRandom(setup, vmId, 1024, CHANGE_MIB);
    await api('POST', `/api/compute/vm/${vmId}/start`);
    await vmIs(vmId, 'Running');
    const second = await runBackup();
    say(
      `second backup after ${CHANGE_MIB} MiB of new random data at 1 GiB: ${secs(second.wallMs)} (its own duration ${secs(second.b.duration_ms)}); sent ${bytes(second.b.sent_bytes)}; bucket grew ${bytes(second.grew)} (${second.newChunks} new chunks of the ${second.b.chunks} it refers to); ${((100 * second.b.sent_bytes) / first.b.sent_bytes).toFixed(2)} % of the first's bytes, ${((100 * second.b.sent_bytes) / info['virtual-size']).toFixed(2)} % of the disk`,
    );

    // 5. restore of the second backup onto the VM
    t0 = performance.now();
    const r = await api('POST', `/api/compute/vm/${vmId}/backups/${second.b.id}/restore`);
    const restored = await eventually(
      async () => {
        const row = await api('GET', `/api/compute/backups/restores/${r.id}`);
        if (row.status === 'failed') throw new Error(`restore failed: ${row.reason}`);
        return row.status === 'completed' ? row : undefined;
      },
      WAIT_MS,
      250,
    );
    const backupRestoreMs = performance.now() - t0;
    await vmIs(vmId, 'Running');
    say(`backup restore onto the VM (POST until completed: stop, ${second.b.chunks} chunks fetched and written, start): ${secs(backupRestoreMs)} (${restored.status})`);

    say(`machine: ${machine()}`);
    say(`date: ${started}; load average (1 / 5 / 15 min) at the start: ${loadAtStart}; at the end: ${load()}`);
  } finally {
    if (t && vmId !== undefined) {
      const app = t;
      const id = vmId;
      try {
        if (snapshotId !== undefined) {
          const sid = snapshotId;
          await app.app.inject({ method: 'DELETE', url: `/api/compute/snapshots/${sid}`, headers: { cookie } });
          await eventually(async () => (await app.app.inject({ method: 'GET', url: `/api/compute/snapshots/${sid}`, headers: { cookie } })).statusCode === 404, 5 * 60_000, 500);
        }
        await app.app.inject({ method: 'DELETE', url: `/api/compute/vm/${id}`, headers: { cookie } });
        await eventually(async () => (await getVm(app, cookie, id)).status === 'Deleted', 5 * 60_000, 500);
      } catch (err) {
        console.error(`the bench VM was not deleted through the API (removed with the setup): ${(err as Error).message}`);
      }
    }
    await t?.close();
    removeEverything(setup);
  }
}

const rgw = await startRadosgw(2, { memstoreBytes: (DATA_MIB + CHANGE_MIB) * 2 * MIB + 1024 * MIB });
try {
  // held shared, as the real-guest tests hold it
  await withLibvirtLock('shared', () => main(rgw));
} finally {
  await rgw.stop();
}
process.exit(0);

/**
 * The libvirt datacenter on this machine: create → guest up for 5 VMs one after another (p50,
 * p95), then the memory and CPU of one idle guest. Needs root and libvirt (as the real-guest tests).
 *   node --import tsx bench/libvirt-boot.ts
 * With --api the 5 VMs are created through the platform instead (DATACENTER=libvirt on a fresh
 * PostgreSQL database, its worker in this process): each one timed from POST /api/compute/vm until
 * GET /api/compute/vm/{id} answers Running (the request, the job queue, the resource lifecycle,
 * the adapter and the boot).
 *   node --import tsx bench/libvirt-boot.ts --api
 */
import os from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LibvirtDatacenter } from '../src/integrations/datacenter/index.js';
import { removeEverything, testSetup, withLibvirtLock, type TestSetup } from '../src/integrations/datacenter/libvirt/test-support.js';
import { buildTestApp } from '../test/helpers/app.js';
import { fund, seededTier } from '../test/helpers/compute.js';
import { customerSession } from '../test/helpers/customers.js';
import { machine } from './lib.js';

const pct = (times: number[], p: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

if (process.argv.includes('--api')) {
  // held shared, as the real-guest tests hold it: the fault tests stop libvirtd only while nobody holds it
  await withLibvirtLock('shared', throughTheApi);
  process.exit(0);
}

async function throughTheApi(): Promise<void> {
  const setup: TestSetup = testSetup();
  setup.input.images = { 'debian-12': setup.input.images.test! };
  const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(configFile, JSON.stringify(setup.input));
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const started = new Date().toISOString();
  const t = await buildTestApp({ db: 'postgres', env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile } });
  try {
    const c = await customerSession(t);
    await fund(t, c.id);
    const tierId = await seededTier(t);
    const get = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } })).json().data;
    const times: number[] = [];
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie: c.cookie }, payload: { name: `bench-${i}`, location_id: 1, tier_id: tierId, os: 'debian-12' } });
      if (res.statusCode !== 201) throw new Error(res.body);
      const id: number = res.json().data.id;
      ids.push(id);
      for (;;) {
        const vm = await get(id);
        if (vm.status === 'Running') break;
        if (vm.status === 'Error') throw new Error(`vm ${id}: ${vm.error?.message}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      times.push(performance.now() - t0);
    }
    console.log(`machine: ${machine()}`);
    console.log(`date: ${started}; load average at the start (1 / 5 / 15 min): ${load}; at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
    console.log(`API create → Running (ms): ${times.map((x) => x.toFixed(0)).join(', ')}; p50 ${pct(times, 50).toFixed(0)}, p95 ${pct(times, 95).toFixed(0)}`);
    for (const id of ids) await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } });
    for (const id of ids) while ((await get(id)).status !== 'Deleted') await new Promise((r) => setTimeout(r, 100));
  } finally {
    await t.close();
    removeEverything(setup);
  }
}

const setup = testSetup();
const dc = new LibvirtDatacenter(setup.config);
const pool = dc.vmHosts.publicIpPool(1).addresses;
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};
try {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await dc.vmHosts.createVm({ reference: `vm-bench-${i}`, locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: pool[i]!, blockStorage: null });
    times.push(performance.now() - t0);
  }
  console.log(`create → up (ms): ${times.map((t) => t.toFixed(0)).join(', ')}; p50 ${pct(times, 50).toFixed(0)}, p95 ${pct(times, 95).toFixed(0)}`);
  for (let i = 1; i < 5; i++) await dc.vmHosts.deleteVm({ externalId: null, reference: `vm-bench-${i}` });
  const pid = Number(readFileSync(`/run/libvirt/qemu/${setup.prefix}-vm-bench-0.pid`, 'utf8'));
  await new Promise((r) => setTimeout(r, 10_000));
  const before = ticks(pid);
  await new Promise((r) => setTimeout(r, 20_000));
  const cpu = ((ticks(pid) - before) / 100 / 20) * 100;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  console.log(`idle guest (160 MiB, 1 vCPU, TCG): RSS of its QEMU ${(Number(rss) / 1024).toFixed(0)} MiB, CPU ${cpu.toFixed(1)} % of one core over 20 s`);
} finally {
  removeEverything(setup);
}

/**
 * The libvirt datacenter on this machine: create → guest up for 5 VMs one after another (p50,
 * p95), then the memory and CPU of one idle guest. Needs root and libvirt (as the real-guest tests).
 *   node --import tsx bench/libvirt-boot.ts
 */
import { readFileSync } from 'node:fs';
import { LibvirtDatacenter } from '../src/integrations/datacenter/index.js';
import { removeEverything, testSetup } from '../src/integrations/datacenter/libvirt/test-support.js';

const setup = testSetup();
const dc = new LibvirtDatacenter(setup.config);
const pool = dc.publicIpPool(1).addresses;
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};
try {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await dc.createVm({ reference: `vm-bench-${i}`, locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: pool[i]!, blockStorage: null });
    times.push(performance.now() - t0);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  console.log(`create → up (ms): ${times.map((t) => t.toFixed(0)).join(', ')}; p50 ${pct(50).toFixed(0)}, p95 ${pct(95).toFixed(0)}`);
  for (let i = 1; i < 5; i++) await dc.deleteVm({ externalId: null, reference: `vm-bench-${i}` });
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

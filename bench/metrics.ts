// VM metrics at scale, on PostgreSQL (a fresh database, the simulated datacenter):
// 1. one minute's collection for BENCH_METRICS_VMS Running VMs (default 1,000): read the counters,
//    store the points, counters and traffic, roll up; wall time and this process's CPU per run
//    (PostgreSQL's own CPU is not in it), median and max of 10 minutes after the baseline;
// 2. the steady state of BENCH_METRICS_HISTORY_VMS VMs (default 100) generated with set-based SQL:
//    2 days of minutes, 30 days of 5-minute buckets, 13 months of hours, 13 traffic months;
//    rows and pg_total_relation_size (partitions, indexes, TOAST) per table, per VM;
// 3. p95 of the 30-day graph query of one of those VMs (the service call the route makes), 200
//    calls one after another.
// Run: `npm run bench:metrics`
//
// With --real: the same collection for BENCH_METRICS_REAL_GUESTS (default 5) real guests instead
// (DATACENTER=libvirt, the small test guests of the real-guest tests, booted first and removed at
// the end; root and libvirt needed): wall time per run, this process's CPU, the CPU of the
// `virsh domstats` it runs (its reaped children) and libvirtd's CPU over the run, 10 runs.
// Run: `npm run bench:metrics -- --real`
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { ManualClock } from '../src/platform/clock.js';
import { queryRows } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { customers } from '../src/modules/customers/customers.tables.js';
import { partitionOf } from '../src/modules/metrics/index.js';
import { LibvirtDatacenter } from '../src/integrations/datacenter/index.js';
import { removeEverything, testSetup, withLibvirtLock } from '../src/integrations/datacenter/libvirt/test-support.js';
import { cpuMs, machine, recreateDatabase } from './lib.js';

const VMS = Number(process.env.BENCH_METRICS_VMS ?? 1000);
const HISTORY_VMS = Number(process.env.BENCH_METRICS_HISTORY_VMS ?? 100);
const MIN = 60_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function main() {
  const url = await recreateDatabase('chp_bench_metrics');
  const clock = new ManualClock(new Date(Math.floor(Date.now() / MIN) * MIN + 5_000));
  const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', DATACENTER: 'simulated' });
  const c = await buildContainer(config, { log: createLogger('warn'), skipBootstrapAdmin: true, clock });
  const out: string[] = [];
  try {
    const db = c.db;
    const [cust] = await db
      .insert(customers)
      .values({ firstName: 'Bench', lastName: 'Metrics', accountType: 'P', isRegistrationCompleted: true, emailVerifiedAt: new Date(), email: 'bench-metrics@example.test', passwordHash: 'x' })
      .returning({ id: customers.id });
    const [tier] = await queryRows<{ id: number }>(db, sql`select id from tiers order by id limit 1`);
    await db.execute(sql`insert into vms (customer_id, name, location_id, tier_id, os, cpu, memory_mb, disk_gb, status, external_id, hypervisor)
      select ${cust!.id}, 'bench-' || i, 1, ${tier!.id}, 'ubuntu-24.04', 2, 2048, 40, 'Running', 'bench-vm-' || i, 'hv-1-1' from generate_series(1, ${VMS}) i`);

    // 1. collection
    const collector = c.services.metricsCollector;
    await collector.collect(); // baseline
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 10; i++) {
      clock.advance(MIN);
      const u0 = process.cpuUsage();
      const t0 = performance.now();
      const run = await collector.collect();
      wall.push(performance.now() - t0);
      const u = process.cpuUsage(u0);
      cpu.push((u.user + u.system) / 1000);
      if (run.stored !== VMS) throw new Error(`stored ${run.stored} of ${VMS}`);
    }
    out.push(`collection of ${VMS} VMs, one minute (10 runs): wall median ${median(wall).toFixed(0)} ms, max ${Math.max(...wall).toFixed(0)} ms; this process's CPU median ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms`);

    // 2. steady state of HISTORY_VMS VMs, generated
    await db.execute(sql`truncate vm_metrics_minute, vm_metrics_5min, vm_metrics_hour, vm_traffic_monthly`);
    const now = clock.now();
    const ids = await queryRows<{ id: number }>(db, sql`select id from vms order by id limit ${HISTORY_VMS}`);
    const idList = `{${ids.map((r) => r.id).join(',')}}`;
    const gen = async (table: 'vm_metrics_minute' | 'vm_metrics_5min' | 'vm_metrics_hour', key: string, step: string, stepMin: number, from: Date, to: Date) => {
      for (let at = from; at < to; ) {
        const p = partitionOf(table, at);
        await db.execute(sql`select ensure_metrics_partition(${table}::regclass, ${p.from.toISOString()}::timestamptz, ${p.to.toISOString()}::timestamptz, ${p.suffix})`);
        const end = p.to < to ? p.to : to;
        await db.execute(
          sql.raw(`insert into ${table} (vm_id, ${key}, customer_id, samples, cpu_percent, cpu_percent_max, memory_samples, memory_bytes, memory_bytes_max,
                     disk_read_bytes, disk_write_bytes, disk_read_ops, disk_write_ops, net_in_bytes, net_out_bytes, net_in_packets, net_out_packets)
                   select v, t, ${cust!.id}, ${stepMin}, (random() * 100)::real, (random() * 100)::real, ${stepMin}, (random() * 2e9)::bigint, (random() * 2e9)::bigint,
                     (random() * 1e8 * ${stepMin})::bigint, (random() * 1e8 * ${stepMin})::bigint, (random() * 1e4 * ${stepMin})::bigint, (random() * 1e4 * ${stepMin})::bigint,
                     (random() * 1e8 * ${stepMin})::bigint, (random() * 1e8 * ${stepMin})::bigint, (random() * 1e5 * ${stepMin})::bigint, (random() * 1e5 * ${stepMin})::bigint
                   from unnest('${idList}'::int[]) v cross join generate_series('${at.toISOString()}'::timestamptz, '${end.toISOString()}'::timestamptz - interval '${step}', interval '${step}') t`),
        );
        at = end;
      }
    };
    const t0 = performance.now();
    const minuteTo = new Date(Math.floor(now.getTime() / MIN) * MIN);
    await gen('vm_metrics_minute', 'minute', '1 minute', 1, new Date(minuteTo.getTime() - 2 * 86_400_000), minuteTo);
    const fiveTo = new Date(Math.floor(now.getTime() / (5 * MIN)) * 5 * MIN);
    await gen('vm_metrics_5min', 'bucket', '5 minutes', 5, new Date(fiveTo.getTime() - 30 * 86_400_000), fiveTo);
    const hourTo = new Date(Math.floor(now.getTime() / (60 * MIN)) * 60 * MIN);
    const hourFrom = new Date(Date.UTC(hourTo.getUTCFullYear(), hourTo.getUTCMonth() - 13, hourTo.getUTCDate(), hourTo.getUTCHours()));
    await gen('vm_metrics_hour', 'bucket', '1 hour', 60, hourFrom, hourTo);
    await db.execute(sql.raw(`insert into vm_traffic_monthly (vm_id, month, customer_id, in_bytes, out_bytes, in_packets, out_packets)
      select v, date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - make_interval(months => m), ${cust!.id}, 1e12, 1e12, 1e9, 1e9
      from unnest('${idList}'::int[]) v cross join generate_series(0, 12) m`));
    await db.execute(sql`update vm_metrics_progress set done_until = ${fiveTo.toISOString()}::timestamptz where name = '5min'`);
    await db.execute(sql`update vm_metrics_progress set done_until = ${hourTo.toISOString()}::timestamptz where name = 'hour'`);
    await db.execute(sql`analyze`);
    out.push(`generated the steady state of ${HISTORY_VMS} VMs in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    let totalRows = 0;
    let totalBytes = 0;
    for (const table of ['vm_metrics_minute', 'vm_metrics_5min', 'vm_metrics_hour', 'vm_traffic_monthly', 'vm_metric_counters']) {
      const [r] = await queryRows<{ rows: string; bytes: string }>(
        db,
        sql.raw(`select (select count(*) from ${table})::text as rows,
                   (coalesce((select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = '${table}'::regclass), 0) + pg_total_relation_size('${table}'))::text as bytes`),
      );
      const rows = Number(r!.rows);
      const bytes = Number(r!.bytes);
      const perVmRows = table === 'vm_metric_counters' ? rows / VMS : rows / HISTORY_VMS;
      const perVmBytes = table === 'vm_metric_counters' ? bytes / VMS : bytes / HISTORY_VMS;
      totalRows += perVmRows;
      totalBytes += perVmBytes;
      out.push(`  ${table}: ${rows} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB; per VM ${perVmRows.toFixed(0)} rows, ${(perVmBytes / 1024).toFixed(0)} KiB (${rows ? (bytes / rows).toFixed(0) : '—'} B a row)`);
    }
    out.push(`  per VM, everything kept: ${totalRows.toFixed(0)} rows, ${(totalBytes / 2 ** 20).toFixed(2)} MiB`);
    out.push(`  per VM and month of hours kept for 13 months: 730 rows, ${((730 * totalBytes) / totalRows / 1024).toFixed(0)} KiB at the average row size`);

    // 3. 30-day graph of one VM
    const q = c.services.metricsQueries;
    const vmId = ids[Math.floor(ids.length / 2)]!.id;
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < 200; i++) {
      const s0 = performance.now();
      const s = await q.series(undefined, vmId, '30d');
      times.push(performance.now() - s0);
      points = s.points.length;
    }
    out.push(`30-day graph of one VM (${points} points), 200 calls: median ${median(times).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`);
    const day: number[] = [];
    for (let i = 0; i < 100; i++) {
      const s0 = performance.now();
      await q.series(undefined, vmId, '24h');
      day.push(performance.now() - s0);
    }
    out.push(`24-hour graph (288 points, the tail from the minutes), 100 calls: median ${median(day).toFixed(1)} ms, p95 ${pct(day, 95).toFixed(1)} ms`);
  } finally {
    await c.close();
  }
  console.log(`${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const l of out) console.log(l);
}

/** CPU (ms) of the children this process has waited for: the `virsh` commands it ran. */
function reapedChildrenCpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

function libvirtdPid(): number | null {
  for (const file of ['/run/libvirtd.pid', '/var/run/libvirtd.pid']) {
    try {
      return Number(readFileSync(file, 'utf8').trim());
    } catch {
      // the other place
    }
  }
  return null;
}

async function realGuests() {
  const GUESTS = Number(process.env.BENCH_METRICS_REAL_GUESTS ?? 5);
  const setup = testSetup();
  const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(configFile, JSON.stringify(setup.input));
  const dc = new LibvirtDatacenter(setup.config);
  const pool = dc.vmHosts.publicIpPool(1).addresses;
  const out: string[] = [];
  const loadAtStart = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const started = new Date().toISOString();
  try {
    const boot0 = performance.now();
    for (let i = 0; i < GUESTS; i++) await dc.vmHosts.createVm({ reference: `vm-m${i}`, locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: pool[i]!, blockStorage: null });
    out.push(`${GUESTS} test guests booted one after another in ${((performance.now() - boot0) / 1000).toFixed(0)} s`);

    const url = await recreateDatabase('chp_bench_metrics_real');
    const clock = new ManualClock(new Date(Math.floor(Date.now() / MIN) * MIN + 5_000));
    const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile });
    const c = await buildContainer(config, { log: createLogger('warn'), skipBootstrapAdmin: true, clock });
    try {
      const db = c.db;
      const [cust] = await db
        .insert(customers)
        .values({ firstName: 'Bench', lastName: 'Metrics', accountType: 'P', isRegistrationCompleted: true, emailVerifiedAt: new Date(), email: 'bench-metrics@example.test', passwordHash: 'x' })
        .returning({ id: customers.id });
      const [tier] = await queryRows<{ id: number }>(db, sql`select id from tiers order by id limit 1`);
      await db.execute(sql`insert into vms (customer_id, name, location_id, tier_id, os, cpu, memory_mb, disk_gb, status, external_id, hypervisor)
        select ${cust!.id}, 'bench-' || i, 1, ${tier!.id}, 'test', 1, 160, 2, 'Running', ${setup.prefix} || '-vm-m' || i, 'hv-local' from generate_series(0, ${GUESTS - 1}) i`);
      const running = (await dc.access.hypervisorList[0]!.virsh.run(['list', '--name', '--state-running'])).stdout.split('\n').filter((l) => l.trim()).length;

      const collector = c.services.metricsCollector;
      const first = await collector.collect(); // baseline
      if (first.baselines !== GUESTS) throw new Error(`baselines ${first.baselines} of ${GUESTS}: ${JSON.stringify(first)}`);
      const daemon = libvirtdPid();
      const wall: number[] = [];
      const cpu: number[] = [];
      const virsh: number[] = [];
      const libvirtd: number[] = [];
      for (let i = 0; i < 10; i++) {
        // a moment between runs, as between two minutes: the guests' counters move
        await new Promise((r) => setTimeout(r, 2_000));
        clock.advance(MIN);
        const u0 = process.cpuUsage();
        const k0 = reapedChildrenCpuMs();
        const d0 = daemon ? cpuMs(daemon) : 0;
        const t0 = performance.now();
        const run = await collector.collect();
        wall.push(performance.now() - t0);
        const u = process.cpuUsage(u0);
        cpu.push((u.user + u.system) / 1000);
        virsh.push(reapedChildrenCpuMs() - k0);
        if (daemon) libvirtd.push(cpuMs(daemon) - d0);
        if (run.stored !== GUESTS) throw new Error(`stored ${run.stored} of ${GUESTS}: ${JSON.stringify(run)}`);
      }
      // the part of the wall time that is libvirt's: the counters read alone, 10 times
      const machines = Array.from({ length: GUESTS }, (_, i) => ({ externalId: `${setup.prefix}-vm-m${i}`, locationId: 1, hypervisor: 'hv-local' }));
      const reads: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await dc.metrics.readCounters(machines, new Date());
        reads.push(performance.now() - t0);
      }
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      out.push(
        `collection of ${GUESTS} real guests (libvirt, ${running} domains running on the host), one minute (10 runs): wall median ${median(wall).toFixed(0)} ms, max ${Math.max(...wall).toFixed(0)} ms; ` +
          `this process's CPU median ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms; ` +
          `virsh domstats (its children) ${sum(virsh)} ms over the 10 runs (${(sum(virsh) / 10).toFixed(0)} ms a run); ` +
          `the counters read alone (virsh domstats of the host) median ${median(reads).toFixed(0)} ms, max ${Math.max(...reads).toFixed(0)} ms; ` +
          (daemon ? `libvirtd ${sum(libvirtd)} ms over the 10 runs (${(sum(libvirtd) / 10).toFixed(0)} ms a run, 10 ms ticks; whatever else asked it meanwhile included)` : 'libvirtd: no pid file'),
      );
    } finally {
      await c.close();
    }
  } finally {
    removeEverything(setup);
  }
  console.log(`${machine()}; ${started}; load average at the start (1 / 5 / 15 min) ${loadAtStart}, at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
  for (const l of out) console.log(l);
}

if (process.argv.includes('--real')) {
  // held shared, as the real-guest tests hold it: the fault tests stop libvirtd only while nobody holds it
  await withLibvirtLock('shared', realGuests);
  process.exit(0);
} else {
  await main();
}

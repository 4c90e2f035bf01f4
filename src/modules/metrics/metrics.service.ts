import type { Logger } from 'pino';
import type { Metrics } from '../../integrations/datacenter/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { defineJob } from '../../platform/queue/queue.js';
import { amountsBetween, floorTo, MINUTE_MS, utcDay, utcMonth } from './metrics.points.js';
import { METRIC_TABLES, type CounterRow, type MetricsRepository, type MetricTable, type MinuteRow, type SampledVm } from './metrics.repository.js';

const FIVE_MIN_MS = 5 * MINUTE_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How long each resolution is kept (the minute points: 2 days; 5 minutes: 30 days; hours: 13 months). */
export const KEEP = { minuteMs: 2 * DAY_MS, fiveMinMs: 30 * DAY_MS, hourMonths: 13 } as const;
/** Counters of a VM not sampled for this long are forgotten (its next sample is a new baseline). */
const COUNTERS_KEPT_MS = 7 * DAY_MS;

export interface CollectRun {
  /** the minute the points are of (the one that just ended) */
  minute: Date;
  vms: number;
  /** points newly stored (a repeated run of the same minute stores none) */
  stored: number;
  /** VMs seen for the first time (or again after a long stop): a baseline, their first point is next minute */
  baselines: number;
  failedHypervisors: string[];
  rolledUp: { fiveMin: number; hour: number };
}

export interface RetentionRun {
  created: string[];
  dropped: string[];
  kept: { partition: string; reason: string }[];
  trafficMonthsDropped: number;
}

const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
const ym = (d: Date) => d.toISOString().slice(0, 7).replace('-', '');

/** The partition of `table` that holds `at`: its bounds and name suffix. */
export function partitionOf(table: MetricTable, at: Date): { from: Date; to: Date; suffix: string } {
  if (METRIC_TABLES[table].span === 'month') {
    const from = utcMonth(at);
    return { from, to: utcMonth(at, 1), suffix: ym(from) };
  }
  const from = utcDay(at);
  return { from, to: new Date(from.getTime() + DAY_MS), suffix: ymd(from) };
}

/**
 * Collection and storage of VM metrics (docs/metrics.md): every minute the counters of every
 * Running VM are read from the datacenter (outside any transaction), turned into the minute's
 * amounts against the last counters kept, and stored with the month's traffic in one transaction;
 * completed 5-minute buckets and hours are then rolled up. An hourly job keeps the partitions
 * ahead and drops those past their retention.
 */
export class MetricsCollector {
  constructor(
    private readonly db: Database,
    private readonly repo: MetricsRepository,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  readonly collectJob = defineJob<object>({
    name: 'metrics.collect',
    schedule: '* * * * *',
    description: "Reads every Running VM's CPU, memory, disk and network counters from the datacenter and stores the minute's points and traffic; rolls up completed 5-minute buckets and hours",
    record: 'failures',
    handler: async (_payload, ctx) => {
      const run = await this.collect();
      if (run.failedHypervisors.length > 0) ctx.log.warn(run, 'metrics: some hypervisors could not be read');
    },
  });

  readonly retentionJob = defineJob<object>({
    name: 'metrics.retention',
    schedule: '20 * * * *',
    description: 'Creates the metric partitions ahead and drops those past their retention (minutes 2 days, 5 minutes 30 days, hours 13 months)',
    handler: async (_payload, ctx) => {
      const run = await this.applyRetention();
      if (run.created.length + run.dropped.length + run.kept.length > 0) ctx.log.info(run, 'metrics retention');
    },
  });

  private async ensurePartition(table: MetricTable, at: Date): Promise<string | undefined> {
    const p = partitionOf(table, at);
    return (await this.repo.ensurePartition(this.db, table, p.from, p.to, p.suffix)) ? `${table}_p${p.suffix}` : undefined;
  }

  /** Samples every Running VM once for the minute that just ended; a repeated run of that minute stores nothing more. */
  async collect(): Promise<CollectRun> {
    const minute = new Date(floorTo(this.clock.now(), MINUTE_MS).getTime() - MINUTE_MS);
    const vms = await this.repo.runningVms(this.db);
    const run: CollectRun = { minute, vms: vms.length, stored: 0, baselines: 0, failedHypervisors: [], rolledUp: { fiveMin: 0, hour: 0 } };
    if (vms.length > 0) {
      const read = await this.metrics.readCounters(
        vms.map((v) => ({ externalId: v.externalId, locationId: v.locationId, hypervisor: v.hypervisor })),
        this.clock.now(),
      );
      const sampledAt = this.clock.now();
      run.failedHypervisors = read.failed.map((f) => f.hypervisor);
      for (const f of read.failed) this.log.warn({ hypervisor: f.hypervisor, detail: f.detail }, `metrics: ${f.message}`);
      const byExternal = new Map<string, SampledVm>(vms.map((v) => [v.externalId, v]));
      await this.ensurePartition('vm_metrics_minute', minute);
      await this.db.transaction(async (tx) => {
        const sampled = read.machines.filter((m) => byExternal.has(m.externalId));
        const prev = await this.repo.counters(
          tx,
          sampled.map((m) => byExternal.get(m.externalId)!.id),
        );
        const points: MinuteRow[] = [];
        const baselines: CounterRow[] = [];
        const counters = new Map<number, CounterRow>();
        for (const m of sampled) {
          const vm = byExternal.get(m.externalId)!;
          const row: CounterRow = { vmId: vm.id, sampledAt, ...m };
          const p = prev.get(vm.id);
          if (!p) {
            baselines.push(row);
            continue;
          }
          const amounts = amountsBetween(p, m, sampledAt.getTime() - p.sampledAt.getTime());
          if (!amounts) continue;
          points.push({ vmId: vm.id, customerId: vm.customerId, ...amounts });
          counters.set(vm.id, row);
        }
        const inserted = new Set(await this.repo.insertMinute(tx, minute, points));
        const stored = points.filter((p) => inserted.has(p.vmId));
        // a point already stored for this minute keeps its counters: the next minute counts from there
        await this.repo.saveCounters(tx, [...baselines, ...stored.map((p) => counters.get(p.vmId)!)]);
        await this.repo.addTraffic(tx, utcMonth(minute), stored);
        run.stored = stored.length;
        run.baselines = baselines.length;
      });
    }
    await this.repo.advance(this.db, 'minute', new Date(minute.getTime() + MINUTE_MS));
    run.rolledUp = await this.rollUp();
    return run;
  }

  /**
   * Rolls completed periods up: 5-minute buckets whose minutes are all collected, then hours whose
   * 5-minute buckets all are. A bucket is recomputed from what is stored (the last one done is
   * done again, for a point stored late), so the amounts stay the exact sums.
   */
  async rollUp(): Promise<{ fiveMin: number; hour: number }> {
    const collected = await this.repo.progress(this.db, 'minute');
    if (!collected) return { fiveMin: 0, hour: 0 };
    const fiveMin = await this.rollUpLevel('5min', 'vm_metrics_minute', 'vm_metrics_5min', '5 minutes', FIVE_MIN_MS, floorTo(collected, FIVE_MIN_MS));
    const fiveDone = await this.repo.progress(this.db, '5min');
    const hour = fiveDone ? await this.rollUpLevel('hour', 'vm_metrics_5min', 'vm_metrics_hour', '1 hour', HOUR_MS, floorTo(fiveDone, HOUR_MS)) : 0;
    return { fiveMin, hour };
  }

  private async rollUpLevel(name: '5min' | 'hour', source: MetricTable, target: MetricTable, width: string, widthMs: number, end: Date): Promise<number> {
    const done = await this.repo.progress(this.db, name);
    if (done && done >= end) return 0;
    // from the last bucket done (again); the first time, or after a long stop, from the first partition still kept
    let start = done ? done.getTime() - widthMs : 0;
    if (end.getTime() - start > DAY_MS) {
      const first = (await this.repo.partitions(this.db, source))[0];
      if (!first) {
        await this.repo.advance(this.db, name, end);
        return 0;
      }
      start = Math.max(start, first.from.getTime());
    }
    let from = floorTo(new Date(start), widthMs);
    let written = 0;
    // one transaction per target partition (a catch-up after a long stop goes a day or a month at a time)
    while (from < end) {
      const part = partitionOf(target, from);
      const to = new Date(Math.min(part.to.getTime(), end.getTime()));
      await this.repo.ensurePartition(this.db, target, part.from, part.to, part.suffix);
      const start = from;
      written += await this.db.transaction(async (tx) => {
        const n = await this.repo.rollUp(tx, source, target, width, start, to);
        await this.repo.advance(tx, name, to);
        return n;
      });
      from = to;
    }
    return written;
  }

  /**
   * Makes the partitions of today and tomorrow (minutes, 5 minutes) and of this and next month
   * (hours), and drops the partitions wholly past their retention, once rolled up. Monthly traffic
   * older than 13 months and counters of VMs not sampled for a week go too.
   */
  async applyRetention(): Promise<RetentionRun> {
    const now = this.clock.now();
    const run: RetentionRun = { created: [], dropped: [], kept: [], trafficMonthsDropped: 0 };
    for (const [table, at] of [
      ['vm_metrics_minute', now],
      ['vm_metrics_minute', new Date(now.getTime() + DAY_MS)],
      ['vm_metrics_5min', now],
      ['vm_metrics_5min', new Date(now.getTime() + DAY_MS)],
      ['vm_metrics_hour', now],
      ['vm_metrics_hour', utcMonth(now, 1)],
    ] as const) {
      const created = await this.ensurePartition(table, at);
      if (created) run.created.push(created);
    }
    const rules: { table: MetricTable; until: Date; rolledUp: 'minute' | '5min' | 'hour' | null }[] = [
      { table: 'vm_metrics_minute', until: new Date(now.getTime() - KEEP.minuteMs), rolledUp: '5min' },
      { table: 'vm_metrics_5min', until: new Date(now.getTime() - KEEP.fiveMinMs), rolledUp: 'hour' },
      { table: 'vm_metrics_hour', until: utcMonth(now, -KEEP.hourMonths), rolledUp: null },
    ];
    for (const rule of rules) {
      const rolledUpTo = rule.rolledUp ? await this.repo.progress(this.db, rule.rolledUp) : null;
      for (const p of await this.repo.partitions(this.db, rule.table)) {
        if (p.to > rule.until) continue;
        if (rule.rolledUp && (!rolledUpTo || rolledUpTo < p.to)) {
          run.kept.push({ partition: p.name, reason: 'not rolled up yet' });
          continue;
        }
        await this.db.transaction((tx) => this.repo.dropPartition(tx, rule.table, p.name));
        run.dropped.push(p.name);
      }
    }
    run.trafficMonthsDropped = await this.repo.dropTrafficBefore(this.db, utcMonth(now, -KEEP.hourMonths));
    await this.repo.dropCountersBefore(this.db, new Date(now.getTime() - COUNTERS_KEPT_MS));
    return run;
  }
}

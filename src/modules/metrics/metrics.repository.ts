import { and, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { vms } from '../compute/compute.tables.js';
import type { MinuteAmounts, StoredCounters } from './metrics.points.js';
import { vmMetricCounters, vmMetricsMinute, vmMetricsProgress, vmTrafficMonthly } from './metrics.tables.js';

/** The partitioned metric tables: each one's period column and how long one partition spans. */
export const METRIC_TABLES = {
  vm_metrics_minute: { key: 'minute', span: 'day' },
  vm_metrics_5min: { key: 'bucket', span: 'day' },
  vm_metrics_hour: { key: 'bucket', span: 'month' },
} as const;
export type MetricTable = keyof typeof METRIC_TABLES;

export type ProgressName = 'minute' | '5min' | 'hour';

/** A VM the collection samples: Running, with a machine at the datacenter. */
export interface SampledVm {
  id: number;
  customerId: number;
  externalId: string;
  locationId: number;
  hypervisor: string | null;
}

export interface MinuteRow extends MinuteAmounts {
  vmId: number;
  customerId: number;
}

export interface CounterRow extends StoredCounters {
  vmId: number;
}

export interface Partition {
  name: string;
  from: Date;
  to: Date;
}

/** One point of a series: a bucket's amounts and its CPU and memory figures. */
export interface SeriesRow {
  time: Date;
  samples: number;
  cpuPercent: number;
  cpuPercentMax: number;
  memoryBytes: number | null;
  memoryBytesMax: number | null;
  diskReadBytes: number;
  diskWriteBytes: number;
  diskReadOps: number;
  diskWriteOps: number;
  netInBytes: number;
  netOutBytes: number;
  netInPackets: number;
  netOutPackets: number;
}

export interface TrafficMonth {
  month: Date;
  inBytes: number;
  outBytes: number;
  inPackets: number;
  outPackets: number;
}

const ts = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

const SUMMED = ['disk_read_bytes', 'disk_write_bytes', 'disk_read_ops', 'disk_write_ops', 'net_in_bytes', 'net_out_bytes', 'net_in_packets', 'net_out_packets'] as const;

/**
 * The roll-up of the rows of a metric table into buckets of `width`: amounts summed exactly, CPU
 * and memory averaged weighted by their samples, maxima kept.
 */
function aggregate(source: MetricTable, width: string, from: Date, to: Date, vmId?: number): SQL {
  const key = sql.identifier(METRIC_TABLES[source].key);
  return sql`
    select vm_id, date_bin(${width}::interval, ${key}, '2000-01-01T00:00:00Z'::timestamptz) as bucket, max(customer_id) as customer_id,
      sum(samples)::int as samples,
      (sum(cpu_percent::float8 * samples) / sum(samples))::real as cpu_percent, max(cpu_percent_max) as cpu_percent_max,
      sum(memory_samples)::int as memory_samples,
      round(sum(memory_bytes::numeric * memory_samples) / nullif(sum(memory_samples), 0))::bigint as memory_bytes, max(memory_bytes_max) as memory_bytes_max,
      ${sql.join(
        SUMMED.map((c) => sql`sum(${sql.identifier(c)})::bigint as ${sql.identifier(c)}`),
        sql`, `,
      )}
    from ${sql.identifier(source)}
    where ${key} >= ${ts(from)} and ${key} < ${ts(to)} ${vmId === undefined ? sql`` : sql`and vm_id = ${vmId}`}
    group by 1, 2`;
}

const COLUMNS = ['customer_id', 'samples', 'cpu_percent', 'cpu_percent_max', 'memory_samples', 'memory_bytes', 'memory_bytes_max', ...SUMMED] as const;

export class MetricsRepository {
  async runningVms(ex: Executor): Promise<SampledVm[]> {
    const rows = await ex
      .select({ id: vms.id, customerId: vms.customerId, externalId: vms.externalId, locationId: vms.locationId, hypervisor: vms.hypervisor })
      .from(vms)
      .where(and(eq(vms.status, 'Running'), isNotNull(vms.externalId)))
      .orderBy(vms.id);
    return rows.map((r) => ({ ...r, externalId: r.externalId! }));
  }

  /** Creates the partition [from, to) of `table` when missing (true). DDL: outside the callers' transactions. */
  async ensurePartition(ex: Executor, table: MetricTable, from: Date, to: Date, suffix: string): Promise<boolean> {
    const [row] = await queryRows<{ created: boolean }>(ex, sql`select ensure_metrics_partition(${table}::regclass, ${ts(from)}, ${ts(to)}, ${suffix}) as created`);
    return row!.created;
  }

  async partitions(ex: Executor, table: MetricTable): Promise<Partition[]> {
    const rows = await queryRows<{ name: string; bound: string }>(
      ex,
      sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`,
    );
    const out: Partition[] = [];
    for (const r of rows) {
      const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(r.bound);
      if (m) out.push({ name: r.name, from: new Date(m[1]!), to: new Date(m[2]!) });
    }
    return out.sort((a, b) => a.from.getTime() - b.from.getTime());
  }

  async dropPartition(tx: Executor, table: MetricTable, partition: string): Promise<void> {
    await tx.execute(sql`alter table ${sql.identifier(table)} detach partition ${sql.identifier(partition)}`);
    await tx.execute(sql`drop table ${sql.identifier(partition)}`);
  }

  async counters(ex: Executor, vmIds: number[]): Promise<Map<number, StoredCounters>> {
    if (vmIds.length === 0) return new Map();
    const rows = await ex.select().from(vmMetricCounters).where(inArray(vmMetricCounters.vmId, vmIds));
    return new Map(rows.map((r) => [r.vmId, r]));
  }

  async saveCounters(ex: Executor, rows: CounterRow[]): Promise<void> {
    if (rows.length === 0) return;
    const set = Object.fromEntries(
      ['sampled_at', 'cpu_time_ns', ...SUMMED].map((c) => [c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase()), sql.raw(`excluded.${c}`)]),
    );
    await ex.insert(vmMetricCounters).values(rows).onConflictDoUpdate({ target: vmMetricCounters.vmId, set });
  }

  /** Stores the minute's points; answers the VMs whose point is new (a point already stored for that minute is left as it is). */
  async insertMinute(ex: Executor, minute: Date, rows: MinuteRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const inserted = await ex
      .insert(vmMetricsMinute)
      .values(
        rows.map((r) => ({
          vmId: r.vmId,
          customerId: r.customerId,
          minute,
          samples: 1,
          cpuPercent: r.cpuPercent,
          cpuPercentMax: r.cpuPercent,
          memorySamples: r.memoryBytes === null ? 0 : 1,
          memoryBytes: r.memoryBytes,
          memoryBytesMax: r.memoryBytes,
          diskReadBytes: r.diskReadBytes,
          diskWriteBytes: r.diskWriteBytes,
          diskReadOps: r.diskReadOps,
          diskWriteOps: r.diskWriteOps,
          netInBytes: r.netInBytes,
          netOutBytes: r.netOutBytes,
          netInPackets: r.netInPackets,
          netOutPackets: r.netOutPackets,
        })),
      )
      .onConflictDoNothing()
      .returning({ vmId: vmMetricsMinute.vmId });
    return inserted.map((r) => r.vmId);
  }

  /** Adds the points' traffic to their VMs' month. */
  async addTraffic(ex: Executor, month: Date, rows: MinuteRow[]): Promise<void> {
    if (rows.length === 0) return;
    await ex
      .insert(vmTrafficMonthly)
      .values(rows.map((r) => ({ vmId: r.vmId, month, customerId: r.customerId, inBytes: r.netInBytes, outBytes: r.netOutBytes, inPackets: r.netInPackets, outPackets: r.netOutPackets })))
      .onConflictDoUpdate({
        target: [vmTrafficMonthly.vmId, vmTrafficMonthly.month],
        set: {
          inBytes: sql`${vmTrafficMonthly.inBytes} + excluded.in_bytes`,
          outBytes: sql`${vmTrafficMonthly.outBytes} + excluded.out_bytes`,
          inPackets: sql`${vmTrafficMonthly.inPackets} + excluded.in_packets`,
          outPackets: sql`${vmTrafficMonthly.outPackets} + excluded.out_packets`,
        },
      });
  }

  async progress(ex: Executor, name: ProgressName): Promise<Date | null> {
    const [row] = await ex.select().from(vmMetricsProgress).where(eq(vmMetricsProgress.name, name));
    return row?.doneUntil ?? null;
  }

  /** Moves the progress forward (never back). */
  async advance(ex: Executor, name: ProgressName, doneUntil: Date): Promise<void> {
    await ex
      .insert(vmMetricsProgress)
      .values({ name, doneUntil })
      .onConflictDoUpdate({ target: vmMetricsProgress.name, set: { doneUntil: sql`greatest(${vmMetricsProgress.doneUntil}, excluded.done_until)`, updatedAt: sql`now()` } });
  }

  /**
   * Rolls the rows of `source` in [from, to) up into `target` buckets of `width` (recomputed: a
   * bucket rolled up again gets the sums of what is stored now). Answers the buckets written.
   */
  async rollUp(ex: Executor, source: MetricTable, target: MetricTable, width: string, from: Date, to: Date): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      ex,
      sql`with up as (
            insert into ${sql.identifier(target)} (vm_id, bucket, ${sql.join(
              COLUMNS.map((c) => sql.identifier(c)),
              sql`, `,
            )})
            select vm_id, bucket, ${sql.join(
              COLUMNS.map((c) => sql.identifier(c)),
              sql`, `,
            )} from (${aggregate(source, width, from, to)}) a
            on conflict (vm_id, bucket) do update set ${sql.join(
              COLUMNS.map((c) => sql`${sql.identifier(c)} = excluded.${sql.identifier(c)}`),
              sql`, `,
            )}
            returning 1)
          select count(*)::int as n from up`,
    );
    return rows[0]!.n;
  }

  /**
   * A VM's points of [from, to) in buckets of `width`: the rows of `table` before `doneUntil`, and
   * after it the rows of the finer `tail` table rolled up on the fly (what is not rolled up yet).
   */
  async series(ex: Executor, vmId: number, table: MetricTable, width: string, from: Date, to: Date, tail?: { table: MetricTable; doneUntil: Date }): Promise<SeriesRow[]> {
    const key = sql.identifier(METRIC_TABLES[table].key);
    const split = tail ? new Date(Math.min(Math.max(tail.doneUntil.getTime(), from.getTime()), to.getTime())) : to;
    const cols = sql.join(
      COLUMNS.filter((c) => c !== 'customer_id').map((c) => sql.identifier(c)),
      sql`, `,
    );
    const stored =
      table === 'vm_metrics_minute'
        ? sql`select ${key} as bucket, ${cols} from ${sql.identifier(table)} where vm_id = ${vmId} and ${key} >= ${ts(from)} and ${key} < ${ts(split)}`
        : sql`select bucket, ${cols} from ${sql.identifier(table)} where vm_id = ${vmId} and bucket >= ${ts(from)} and bucket < ${ts(split)}`;
    const live = tail && split < to ? sql` union all select bucket, ${cols} from (${aggregate(tail.table, width, split, to, vmId)}) t` : sql``;
    const rows = await queryRows<Record<string, string | number | Date | null>>(ex, sql`select * from (${stored}${live}) s order by bucket`);
    const n = (v: unknown): number => Number(v);
    return rows.map((r) => ({
      time: new Date(r.bucket as string),
      samples: n(r.samples),
      cpuPercent: n(r.cpu_percent),
      cpuPercentMax: n(r.cpu_percent_max),
      memoryBytes: r.memory_bytes === null ? null : n(r.memory_bytes),
      memoryBytesMax: r.memory_bytes_max === null ? null : n(r.memory_bytes_max),
      diskReadBytes: n(r.disk_read_bytes),
      diskWriteBytes: n(r.disk_write_bytes),
      diskReadOps: n(r.disk_read_ops),
      diskWriteOps: n(r.disk_write_ops),
      netInBytes: n(r.net_in_bytes),
      netOutBytes: n(r.net_out_bytes),
      netInPackets: n(r.net_in_packets),
      netOutPackets: n(r.net_out_packets),
    }));
  }

  async traffic(ex: Executor, vmId: number, fromMonth: Date): Promise<TrafficMonth[]> {
    const rows = await ex
      .select()
      .from(vmTrafficMonthly)
      .where(and(eq(vmTrafficMonthly.vmId, vmId), sql`${vmTrafficMonthly.month} >= ${ts(fromMonth)}`))
      .orderBy(sql`${vmTrafficMonthly.month} desc`);
    return rows.map((r) => ({ month: r.month, inBytes: r.inBytes, outBytes: r.outBytes, inPackets: r.inPackets, outPackets: r.outPackets }));
  }

  async dropTrafficBefore(ex: Executor, month: Date): Promise<number> {
    const gone = await ex.delete(vmTrafficMonthly).where(lt(vmTrafficMonthly.month, month)).returning({ vmId: vmTrafficMonthly.vmId });
    return gone.length;
  }

  /** Forgets the counters of VMs not sampled since `before` (stopped or deleted long ago: their next sample is a new baseline). */
  async dropCountersBefore(ex: Executor, before: Date): Promise<number> {
    const gone = await ex.delete(vmMetricCounters).where(lt(vmMetricCounters.sampledAt, before)).returning({ vmId: vmMetricCounters.vmId });
    return gone.length;
  }
}

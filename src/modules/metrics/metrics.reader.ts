import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../platform/db/database.js';

/** The metrics of a VM, as stored per minute (and rolled up) and as the API and alert rules name them. */
export const METRIC_NAMES = [
  'cpu_percent',
  'memory_bytes',
  'disk_read_bytes',
  'disk_write_bytes',
  'disk_read_ops',
  'disk_write_ops',
  'net_in_bytes',
  'net_out_bytes',
  'net_in_packets',
  'net_out_packets',
] as const;
/**
 * - cpu_percent: CPU used over the minute, percent of the VM's vCPUs together (0–100);
 * - memory_bytes: memory in use in the guest at the sample (null when the guest does not report it);
 * - the others: the amount in the minute (bytes, operations or packets; divide by 60 for a rate per second).
 */
export type MetricName = (typeof METRIC_NAMES)[number];

export function isMetricName(s: string): s is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(s);
}

/** One VM's value of one metric in one minute. */
export interface MinutePoint {
  vmId: number;
  /** the first instant of the UTC minute */
  minute: Date;
  /** null: memory_bytes of a guest that does not report its memory */
  value: number | null;
}

/**
 * Reads the stored per-minute points (kept 2 days) for other modules (alert rules): plain reads,
 * in or out of a transaction of the caller's (`ex` defaults to the database).
 */
export class MetricsReader {
  constructor(private readonly db: Database) {}

  /**
   * The per-minute points of `metric` of the VMs in [from, to), ordered by VM then minute. A
   * minute without a point (VM not running, collection missed) is absent, not zero.
   */
  async minutePoints(vmIds: readonly number[], metric: MetricName, from: Date, to: Date, ex: Database = this.db): Promise<MinutePoint[]> {
    if (vmIds.length === 0) return [];
    if (!isMetricName(metric)) throw new Error(`unknown metric ${String(metric)}`);
    const rows = await queryRows<{ vm_id: number; minute: Date | string; value: number | string | null }>(
      ex,
      sql`select vm_id, minute, ${sql.identifier(metric)} as value from vm_metrics_minute
          where vm_id = any(${`{${vmIds.map((v) => Math.trunc(v)).join(',')}}`}::int[])
            and minute >= ${from.toISOString()}::timestamptz and minute < ${to.toISOString()}::timestamptz
          order by vm_id, minute`,
    );
    return rows.map((r) => ({ vmId: Number(r.vm_id), minute: new Date(r.minute), value: r.value === null ? null : Number(r.value) }));
  }

  /** Where the collection stands: every minute before this one is collected and stored (null before the first collection). */
  async collectedUntil(ex: Database = this.db): Promise<Date | null> {
    const [row] = await queryRows<{ done_until: Date | string }>(ex, sql`select done_until from vm_metrics_progress where name = 'minute'`);
    return row ? new Date(row.done_until) : null;
  }
}

import { bigint, index, integer, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * VM metrics (docs/metrics.md). One wide row per VM and period at three resolutions, each table
 * partitioned by range of its period (hand-written in the migration: drizzle-kit does not generate
 * partitioning) and emptied by dropping whole partitions:
 * - vm_metrics_minute: one row per VM and UTC minute, daily partitions, kept 2 days;
 * - vm_metrics_5min: roll-up per 5 minutes, daily partitions, kept 30 days;
 * - vm_metrics_hour: roll-up per hour, monthly partitions, kept 13 months.
 *
 * Counters (disk/network bytes, operations, packets) are the amounts of the period, so a roll-up
 * is their exact sum. CPU (percent of the VM's vCPUs, averaged over the period) and memory in use
 * (bytes; null when the guest does not report it) are kept as an average and a maximum; the
 * roll-ups weight the average by `samples` (minutes with a point) and `memory_samples`.
 */
const metricColumns = {
  vmId: integer('vm_id').notNull(),
  /** the VM's owner when sampled (staff lists and the alert rules read by customer) */
  customerId: integer('customer_id').notNull(),
  /** minutes with a point in the period (1 in the minute table) */
  samples: integer('samples').notNull(),
  cpuPercent: real('cpu_percent').notNull(),
  cpuPercentMax: real('cpu_percent_max').notNull(),
  /** minutes whose memory in use is known */
  memorySamples: integer('memory_samples').notNull(),
  memoryBytes: bigint('memory_bytes', { mode: 'number' }),
  memoryBytesMax: bigint('memory_bytes_max', { mode: 'number' }),
  diskReadBytes: bigint('disk_read_bytes', { mode: 'number' }).notNull(),
  diskWriteBytes: bigint('disk_write_bytes', { mode: 'number' }).notNull(),
  diskReadOps: bigint('disk_read_ops', { mode: 'number' }).notNull(),
  diskWriteOps: bigint('disk_write_ops', { mode: 'number' }).notNull(),
  netInBytes: bigint('net_in_bytes', { mode: 'number' }).notNull(),
  netOutBytes: bigint('net_out_bytes', { mode: 'number' }).notNull(),
  netInPackets: bigint('net_in_packets', { mode: 'number' }).notNull(),
  netOutPackets: bigint('net_out_packets', { mode: 'number' }).notNull(),
};

/** One point per VM and minute (the amounts since the previous sample, at most a few minutes). Daily partitions, kept 2 days. */
export const vmMetricsMinute = pgTable(
  'vm_metrics_minute',
  { ...metricColumns, minute: timestamp('minute', { withTimezone: true }).notNull() },
  (t) => [primaryKey({ columns: [t.vmId, t.minute], name: 'vm_metrics_minute_pkey' })],
);

/** Roll-up per 5 minutes of vm_metrics_minute. Daily partitions, kept 30 days. */
export const vmMetrics5min = pgTable(
  'vm_metrics_5min',
  { ...metricColumns, bucket: timestamp('bucket', { withTimezone: true }).notNull() },
  (t) => [primaryKey({ columns: [t.vmId, t.bucket], name: 'vm_metrics_5min_pkey' })],
);

/** Roll-up per hour of vm_metrics_5min. Monthly partitions, kept 13 months. */
export const vmMetricsHour = pgTable(
  'vm_metrics_hour',
  { ...metricColumns, bucket: timestamp('bucket', { withTimezone: true }).notNull() },
  (t) => [primaryKey({ columns: [t.vmId, t.bucket], name: 'vm_metrics_hour_pkey' })],
);

/**
 * The hypervisor's cumulative counters of each VM at its last sample: the next sample's amounts
 * are the differences. A counter lower than before means the guest's process restarted (counters
 * start again at zero): the amount is then the new value.
 */
export const vmMetricCounters = pgTable('vm_metric_counters', {
  vmId: integer('vm_id').primaryKey(),
  sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull(),
  cpuTimeNs: bigint('cpu_time_ns', { mode: 'number' }).notNull(),
  diskReadBytes: bigint('disk_read_bytes', { mode: 'number' }).notNull(),
  diskWriteBytes: bigint('disk_write_bytes', { mode: 'number' }).notNull(),
  diskReadOps: bigint('disk_read_ops', { mode: 'number' }).notNull(),
  diskWriteOps: bigint('disk_write_ops', { mode: 'number' }).notNull(),
  netInBytes: bigint('net_in_bytes', { mode: 'number' }).notNull(),
  netOutBytes: bigint('net_out_bytes', { mode: 'number' }).notNull(),
  netInPackets: bigint('net_in_packets', { mode: 'number' }).notNull(),
  netOutPackets: bigint('net_out_packets', { mode: 'number' }).notNull(),
});

/**
 * Network traffic per VM and calendar month (UTC), added in the same transaction as the minute
 * points it sums (only points newly stored count, so a repeated collection adds nothing). Kept
 * as long as the VM's hourly points (13 months) by the retention job.
 */
export const vmTrafficMonthly = pgTable(
  'vm_traffic_monthly',
  {
    vmId: integer('vm_id').notNull(),
    month: timestamp('month', { withTimezone: true }).notNull(),
    customerId: integer('customer_id').notNull(),
    inBytes: bigint('in_bytes', { mode: 'number' }).notNull(),
    outBytes: bigint('out_bytes', { mode: 'number' }).notNull(),
    inPackets: bigint('in_packets', { mode: 'number' }).notNull(),
    outPackets: bigint('out_packets', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.vmId, t.month], name: 'vm_traffic_monthly_pkey' }), index('vm_traffic_monthly_month_idx').on(t.month, t.customerId)],
);

/**
 * How far each roll-up and collection has come: `minute` (the last minute collected), `5min`
 * and `hour` (every bucket before `done_until` is rolled up; the next run recomputes a few
 * buckets back so late points still count).
 */
export const vmMetricsProgress = pgTable('vm_metrics_progress', {
  name: text('name').primaryKey(),
  doneUntil: timestamp('done_until', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

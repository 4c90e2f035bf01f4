import { Type } from 'typebox';
import { IntId, Timestamp } from '../../platform/http/schemas.js';

export const METRIC_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type MetricRange = (typeof METRIC_RANGES)[number];

export const VmMetricsParams = Type.Object({ id: IntId });

export const VmMetricsQuery = Type.Object({
  range: Type.Optional(
    Type.String({
      enum: [...METRIC_RANGES],
      default: '24h',
      description: '1h: one point a minute; 24h: one per 5 minutes; 7d and 30d: one per hour (default 24h)',
    }),
  ),
});

const Rate = (what: string) => Type.Number({ minimum: 0, description: `${what} per second, averaged over the point's period while the VM ran` });

export const MetricPoint = Type.Object({
  time: Type.String({ format: 'date-time', description: 'the start of the period (UTC)' }),
  cpu_percent: Type.Number({ minimum: 0, maximum: 100, description: "CPU used, percent of all the VM's vCPUs together, averaged over the period" }),
  cpu_percent_max: Type.Number({ minimum: 0, maximum: 100, description: 'the highest minute of the period' }),
  memory_bytes: Type.Union([Type.Integer(), Type.Null()], { description: "memory in use in the guest (average); null when the guest's balloon driver does not report it" }),
  memory_bytes_max: Type.Union([Type.Integer(), Type.Null()]),
  disk_read_bytes_per_second: Rate('bytes read from its disks'),
  disk_write_bytes_per_second: Rate('bytes written to its disks'),
  disk_read_ops_per_second: Rate('read operations'),
  disk_write_ops_per_second: Rate('write operations'),
  net_in_bytes_per_second: Rate('bytes received on its NICs'),
  net_out_bytes_per_second: Rate('bytes sent from its NICs'),
  net_in_packets_per_second: Rate('packets received'),
  net_out_packets_per_second: Rate('packets sent'),
  net_in_bytes: Type.Integer({ description: 'bytes received in the period' }),
  net_out_bytes: Type.Integer({ description: 'bytes sent in the period' }),
  minutes: Type.Integer({ description: 'minutes of the period with a sample (the VM ran and was sampled)' }),
});

export const VmMetrics = Type.Object({
  vm_id: Type.Integer(),
  range: Type.String({ enum: [...METRIC_RANGES] }),
  resolution_seconds: Type.Integer({ description: 'the length of each point: 60, 300 or 3600' }),
  from: Timestamp,
  to: Timestamp,
  memory_total_bytes: Type.Integer({ description: "the VM's memory (its tier's size)" }),
  vcpus: Type.Integer(),
  points: Type.Array(MetricPoint, { description: 'oldest first; a period without samples (VM stopped) has no point' }),
});

export const TrafficMonth = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'calendar month (UTC), YYYY-MM' }),
  in_bytes: Type.Integer({ description: 'received by the VM' }),
  out_bytes: Type.Integer({ description: 'sent by the VM' }),
  in_packets: Type.Integer(),
  out_packets: Type.Integer(),
});

export const VmTraffic = Type.Object({
  vm_id: Type.Integer(),
  months: Type.Array(TrafficMonth, { description: 'newest first: the current month always, then every earlier month with traffic (up to 13 months back)' }),
});

import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { METRIC_NAMES } from '../metrics/index.js';
import { MAX_ALERT_POLICIES, MAX_ALERT_THRESHOLD, MAX_ALERT_WINDOW_MINUTES } from './alerts.service.js';
import { ALERT_AGGREGATIONS, ALERT_COMPARISONS } from './alerts.tables.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Metric = Type.String({
  enum: [...METRIC_NAMES],
  description:
    'cpu_percent (percent of the VM\'s vCPUs, 0–100), memory_bytes (in use in the guest), or an amount per minute: disk_read_bytes, disk_write_bytes, disk_read_ops, disk_write_ops, net_in_bytes, net_out_bytes, net_in_packets, net_out_packets',
});
const Comparison = Type.String({ enum: [...ALERT_COMPARISONS], description: '> (above the threshold) or < (below it)' });
const Aggregation = Type.String({
  enum: [...ALERT_AGGREGATIONS],
  description:
    'how the window\'s per-minute points become one value: avg (default), min (every minute: "above 80 for 5 minutes" is min > 80), max, sum (the total over the window, for amounts: "more than 1 GB out in an hour"; not for cpu_percent or memory_bytes)',
});
const Threshold = Type.Integer({ minimum: 0, maximum: Number(MAX_ALERT_THRESHOLD), description: 'a whole number in the metric\'s unit (percent, bytes, operations, packets)' });
const WindowMinutes = Type.Integer({ minimum: 1, maximum: MAX_ALERT_WINDOW_MINUTES, description: `the window, in minutes (1 to ${MAX_ALERT_WINDOW_MINUTES}; default 5)` });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'any text but blank (up to 100 characters)' });

export const CreatePolicyBody = StrictObject({
  name: Name,
  vm_id: Type.Optional(Nullable(Type.Integer({ ...IntId, description: 'one VM of the account; null or absent: every VM of the account, also those made later' }))),
  metric: Metric,
  comparison: Comparison,
  threshold: Threshold,
  aggregation: Type.Optional(Aggregation),
  window_minutes: Type.Optional(WindowMinutes),
  notify_email: Type.Optional(Type.Boolean({ description: 'also mail the account when it fires and resolves (default true; in the app and by webhook always)' })),
  enabled: Type.Optional(Type.Boolean({ description: 'default true' })),
});

export const UpdatePolicyBody = StrictObject(
  {
    name: Type.Optional(Name),
    comparison: Type.Optional(Comparison),
    threshold: Type.Optional(Threshold),
    aggregation: Type.Optional(Aggregation),
    window_minutes: Type.Optional(WindowMinutes),
    notify_email: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { minProperties: 1 },
);

export const AlertPolicy = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  vm_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null: every VM of the account' }),
  metric: Type.String(),
  comparison: Type.String(),
  threshold: Type.Number(),
  aggregation: Type.String(),
  window_minutes: Type.Integer(),
  notify_email: Type.Boolean(),
  enabled: Type.Boolean(),
  open_alerts: Type.Integer({ description: 'its incidents open now' }),
  evaluated_until: Type.Union([Timestamp, Type.Null()], { description: 'the end of the last window it was evaluated on' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Alert = Type.Object({
  id: Type.Integer(),
  policy_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null once the policy was deleted' }),
  policy_name: Type.String(),
  vm_id: Type.Integer(),
  vm_name: Type.Union([Type.String(), Type.Null()]),
  metric: Type.String(),
  comparison: Type.String(),
  threshold: Type.Number(),
  aggregation: Type.String(),
  window_minutes: Type.Integer(),
  status: Type.String({ enum: ['firing', 'resolved'] }),
  fired_value: Type.Number({ description: 'the window\'s value that fired it' }),
  resolved_value: Type.Union([Type.Number(), Type.Null()]),
  resolution: Type.Union([Type.String({ enum: ['recovered', 'no_data', 'vm_deleted', 'policy_changed', 'policy_deleted'] }), Type.Null()]),
  started_at: Timestamp,
  resolved_at: Type.Union([Timestamp, Type.Null()]),
});

export const PolicyParams = Type.Object({ id: IntId });

export const AlertListQuery = Type.Object({
  ...PageQuery.properties,
  vm_id: Type.Optional(IntId),
  policy_id: Type.Optional(IntId),
  status: Type.Optional(Type.String({ enum: ['firing', 'resolved'], description: 'firing: open incidents only; resolved: closed ones only' })),
});

export const POLICY_LIMIT_TEXT = `At most ${MAX_ALERT_POLICIES} policies per account (409 QUOTA_EXCEEDED).`;

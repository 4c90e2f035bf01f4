import { Type } from 'typebox';
import { IntId, Money, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const RunningResource = Type.Object({
  resource_type: Type.String(),
  resource_id: Type.String(),
  description: Type.String(),
  quantity: Type.Number(),
  hourly_price: Type.Number({ description: 'price per hour of one unit, at the price in force now (6 decimals)' }),
  hourly_cost: Type.Number({ description: 'quantity × hourly_price (6 decimals)' }),
  started_at: Timestamp,
});

export const BillingUsage = Type.Object({
  billing_type: Type.String(),
  current_balance: Money,
  hourly_burn: Type.Number({ description: 'what the running resources cost per hour now (6 decimals)' }),
  runway_hours: Nullable(Type.Integer({ description: 'whole hours the current balance lasts at that burn; null when nothing runs' })),
  runway_warning_hours: Type.Integer(),
  suspended_at: Nullable(Timestamp),
  suspend_reason: Nullable(Type.String()),
  month_to_date: Money,
  running: Type.Array(RunningResource),
});

export const ChargingSettingsView = Type.Object({
  runway_warning_hours: Type.Integer(),
  low_balance_warning_hours: Type.Integer(),
  postpaid_due_days: Type.Integer(),
  postpaid_suspend_grace_days: Type.Integer(),
});

export const ChargingSettingsBody = StrictObject({
  runway_warning_hours: Type.Integer({ minimum: 0, maximum: 8760 }),
  low_balance_warning_hours: Type.Integer({ minimum: 0, maximum: 8760 }),
  postpaid_due_days: Type.Integer({ minimum: 1, maximum: 365 }),
  postpaid_suspend_grace_days: Type.Integer({ minimum: 0, maximum: 365 }),
});

export const ChargeFailureQuery = Type.Object({
  ...PageQuery.properties,
  resolved: Type.Optional(Type.Boolean({ description: 'true: the customers charged again since; default false: the ones still set aside' })),
});

export const ChargeFailure = Type.Object({
  customer_id: Type.Integer(),
  customer_email: Type.String(),
  first_hour: Timestamp,
  error_code: Type.String({ description: 'the SQLSTATE (e.g. 22003, a value no column holds) or the error code' }),
  error: Type.String({ description: "the database's words, never SQL" }),
  attempts: Type.Integer({ description: 'failed charge runs, the first included' }),
  failed_at: Timestamp,
  last_attempt_at: Timestamp,
  next_retry_at: Timestamp,
  resolved_at: Nullable(Timestamp),
});

export const CustomerIdPath = Type.Object({ customer_id: IntId });

export const ChargedHour = Type.Object({
  hour: Timestamp,
  postpaid: Type.Boolean({ description: 'true: accrued for the monthly invoice; false: taken from the wallet' }),
  usage_amount: Type.Number({ description: 'the sum of the lines (6 decimals)' }),
  amount: Money,
  lines: Type.Array(
    Type.Object({
      resource_type: Type.String(),
      resource_id: Type.String(),
      description: Type.String(),
      quantity: Type.Number(),
      hourly_price: Type.Number({ description: 'price per hour of one unit in force at the hour’s start (6 decimals)' }),
      seconds: Type.Integer({ description: 'seconds of the hour the meter ran (3600: all of it)' }),
      amount: Type.Number({ description: 'hourly_price × quantity × seconds / 3600 (6 decimals)' }),
    }),
    { description: 'one per meter that ran in the hour: a resource that changed price within it (a resized VM) has one line per part' },
  ),
}, { description: 'amount: the whole cents taken for the hour; the rest of usage_amount is carried to the next hour' });

import { sql } from 'drizzle-orm';
import { bigint, check, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Money that came in, summed per UTC hour: the dashboard's revenue and deposit trends add these up
 * into the platform time zone's months (PLATFORM_TIME_ZONE, whole-hour offsets), so twelve months
 * are ~8,800 rows whatever the size of the ledger. Written only by the triggers in
 * drizzle/routines/dashboard_totals.sql, in the same transaction as the row they count:
 * - metric `deposit`, source `topup`: ledger entries of type BalanceLogAdd (actual_amount);
 * - metric `revenue`, source `topup`: top-up invoices becoming Paid (amount: what the platform
 *   keeps, without the payment fee, at paid_at);
 * - metric `gateway_fee`, source `topup`: the fee of those invoices (collected for the payment
 *   method, never revenue).
 * A new kind of paid invoice (postpaid) adds its own trigger with metric `revenue` and a source of
 * its own; the dashboard reads every source of a metric.
 */
export const dashboardHourlyTotals = pgTable(
  'dashboard_hourly_totals',
  {
    metric: text('metric').notNull(),
    source: text('source').notNull(),
    /** date_trunc('hour', at) in UTC */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
    entries: integer('entries').notNull(),
  },
  (t) => [
    primaryKey({ name: 'dashboard_hourly_totals_pk', columns: [t.metric, t.hour, t.source] }),
    check('dashboard_hourly_totals_metric', sql`${t.metric} in ('revenue', 'deposit', 'gateway_fee')`),
  ],
);

/**
 * Counts and sums the dashboard reads without scanning customers, wallets and VMs: the value of a
 * counter is its row here plus its rows in `dashboard_counter_deltas`. Triggers
 * (drizzle/routines/dashboard_counters.sql) only INSERT deltas, in the writer's transaction, so
 * no writer waits for another; the job `dashboard.compact-counters` folds the deltas in here every
 * minute in one statement. Names: customers.registered, customers.active,
 * wallets.active_current, wallets.active_actual (balances of active customers), and per location
 * vms.alive (not Deleted), vms.running, vms.public_ips, vms.ram / vms.cpu / vms.os (key: MB, vCPU, image).
 */
export const dashboardCounters = pgTable(
  'dashboard_counters',
  {
    name: text('name').notNull(),
    /** 0: not per location */
    locationId: integer('location_id').notNull().default(sql`0`),
    key: text('key').notNull().default(''),
    value: numeric('value', { precision: 20, scale: 2 }).notNull(),
  },
  (t) => [primaryKey({ name: 'dashboard_counters_pk', columns: [t.name, t.locationId, t.key] })],
);

export const dashboardCounterDeltas = pgTable('dashboard_counter_deltas', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  locationId: integer('location_id').notNull().default(sql`0`),
  key: text('key').notNull().default(''),
  value: numeric('value', { precision: 20, scale: 2 }).notNull(),
});

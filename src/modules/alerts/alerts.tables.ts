import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { vms } from '../compute/compute.tables.js';
import { customers } from '../customers/customers.tables.js';

export const ALERT_COMPARISONS = ['>', '<'] as const;
export type AlertComparison = (typeof ALERT_COMPARISONS)[number];
/** How a window's per-minute points become the one value compared: docs/api.md, "Alerts". */
export const ALERT_AGGREGATIONS = ['avg', 'min', 'max', 'sum'] as const;
export type AlertAggregation = (typeof ALERT_AGGREGATIONS)[number];

/**
 * A metric alert policy of a customer: one VM's (`vm_id`) or every VM of the account (`vm_id`
 * null, also VMs made later). It fires for a VM when the aggregate of the metric's per-minute
 * points over the last `window_minutes` compares with `threshold` as `comparison` says.
 * `evaluated_until` is where the last evaluated window ended: a run whose window ends there or earlier does
 * nothing, so repeated runs and a second worker never evaluate a minute twice.
 */
export const alertPolicies = pgTable(
  'alert_policies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    vmId: integer('vm_id').references(() => vms.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    comparison: text('comparison').$type<AlertComparison>().notNull(),
    threshold: numeric('threshold', { precision: 24, scale: 4 }).notNull(),
    aggregation: text('aggregation').$type<AlertAggregation>().notNull(),
    windowMinutes: integer('window_minutes').notNull(),
    /** the policy's alerts are also mailed to the account (in the app and by webhook always) */
    notifyEmail: boolean('notify_email').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    evaluatedUntil: timestamp('evaluated_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('alert_policies_customer_idx').on(t.customerId, t.id),
    check('alert_policies_comparison', sql`${t.comparison} in ('>', '<')`),
    check('alert_policies_aggregation', sql`${t.aggregation} in ('avg', 'min', 'max', 'sum')`),
    check('alert_policies_window', sql`${t.windowMinutes} between 1 and 1440`),
  ],
);

/**
 * One incident: a policy fired for a VM at `started_at` (the end of the window that crossed) and resolved at `resolved_at` (null while open). At most one open incident per policy
 * and VM (the partial unique index): the insert that wins notifies. The policy's figures are
 * copied, so the history reads the same after the policy changes or is deleted.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    policyId: integer('policy_id').references(() => alertPolicies.id, { onDelete: 'set null' }),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id, { onDelete: 'cascade' }),
    policyName: text('policy_name').notNull(),
    metric: text('metric').notNull(),
    comparison: text('comparison').notNull(),
    threshold: numeric('threshold', { precision: 24, scale: 4 }).notNull(),
    aggregation: text('aggregation').notNull(),
    windowMinutes: integer('window_minutes').notNull(),
    /** the aggregate that fired it, and the one that resolved it (null: no data, the VM gone or the policy deleted) */
    firedValue: numeric('fired_value', { precision: 30, scale: 4 }).notNull(),
    resolvedValue: numeric('resolved_value', { precision: 30, scale: 4 }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** why it resolved: recovered, no_data, vm_deleted, policy_changed, policy_deleted */
    resolution: text('resolution'),
  },
  (t) => [
    uniqueIndex('alerts_open_unique').on(t.policyId, t.vmId).where(sql`${t.resolvedAt} is null`),
    index('alerts_customer_idx').on(t.customerId, t.id),
    index('alerts_vm_open_idx').on(t.vmId).where(sql`${t.resolvedAt} is null`),
  ],
);

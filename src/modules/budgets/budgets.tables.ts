import { sql } from 'drizzle-orm';
import { check, date, integer, numeric, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/** The thresholds a budget starts with, in percent of its amount. */
export const DEFAULT_BUDGET_THRESHOLDS = [50, 80, 100] as const;
/** The runway alert a budget starts with: the balance lasts fewer than this many days. */
export const DEFAULT_RUNWAY_ALERT_DAYS = 7;

/**
 * A customer's spend alerts (one row per account, made by PUT /api/billing/budget): a monthly
 * budget in the platform currency and the percentages of it that notify, and for prepaid accounts
 * the runway (days the balance lasts at the current hourly cost) under which they are warned.
 * `runway_alert_since` is the open runway incident: set when the runway dropped below the alert
 * days, cleared once it is back above them (so the next drop notifies again).
 */
export const budgets = pgTable(
  'budgets',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** null: no monthly budget (the runway alert alone) */
    monthlyAmount: numeric('monthly_amount', { precision: 18, scale: 2 }),
    thresholds: integer('thresholds').array().notNull(),
    /** null: no runway alert */
    runwayAlertDays: integer('runway_alert_days'),
    runwayAlertSince: timestamp('runway_alert_since', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('budgets_amount_positive', sql`${t.monthlyAmount} is null or ${t.monthlyAmount} > 0`),
    check('budgets_runway_days', sql`${t.runwayAlertDays} is null or ${t.runwayAlertDays} between 1 and 365`),
  ],
);

/**
 * Each threshold crossed, once per account, calendar month (UTC) and percentage: the primary key
 * is what makes "notify once a month" hold under repeated runs and two workers (the insert that
 * wins notifies, in its transaction).
 */
export const budgetAlerts = pgTable(
  'budget_alerts',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** the first day of the month the spend is counted in */
    month: date('month', { mode: 'string' }).notNull(),
    threshold: integer('threshold').notNull(),
    /** the budget and the month's spend when it was crossed */
    budget: numeric('budget', { precision: 18, scale: 2 }).notNull(),
    spent: numeric('spent', { precision: 24, scale: 2 }).notNull(),
    crossedAt: timestamp('crossed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.month, t.threshold], name: 'budget_alerts_pkey' })],
);

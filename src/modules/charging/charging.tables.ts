import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';

/**
 * A meter measures one billable thing of one resource while it runs: resource modules open one
 * when the resource starts costing money and close it when it stops (MeteringService), inside
 * their own transactions. The hourly job turns meters into usage records.
 */
export const meters = pgTable(
  'meters',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** vm | public_ip | block_storage | network | bucket | ... */
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    description: text('description').notNull(),
    /** a price_versions key: tier:<id>, component:<id>, storage_tier:<id>, tier:<id>:component:<id> */
    priceKey: text('price_key').notNull(),
    /**
     * charged while price_key has no price in force at the hour: a VM's public IP is metered at
     * its tier's own price (tier:<id>:component:<id>) and falls back on the location's component:<id>
     */
    fallbackPriceKey: text('fallback_price_key'),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    /** units of the price (1 for a VM, GB for storage, ...) */
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull().default('1'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // covers the chunk boundaries of the hourly job (an index-only scan)
    index('meters_customer_idx').on(t.customerId, t.startedAt, t.stoppedAt),
    index('meters_resource_idx').on(t.resourceType, t.resourceId),
    uniqueIndex('meters_open_unique').on(t.resourceType, t.resourceId, t.priceKey).where(sql`${t.stoppedAt} is null`),
    check('meters_quantity_positive', sql`${t.quantity} > 0`),
    // METER_QUANTITY_MAX (metering.service.ts)
    check('meters_quantity_bounded', sql`${t.quantity} <= 1000000`),
    check('meters_period', sql`${t.stoppedAt} is null or ${t.stoppedAt} >= ${t.startedAt}`),
  ],
);

/**
 * What one meter used in one clock hour: the unique (meter_id, hour) primary key makes a re-run,
 * a retry or a second worker a no-op. `amount` is exact (6 decimals): hourly_price × quantity ×
 * seconds / 3600. Append-only.
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    // no foreign key: a million rows an hour would pay a trigger lookup each; meters are never deleted
    meterId: bigint('meter_id', { mode: 'number' }).notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    customerId: integer('customer_id').notNull(),
    priceVersionId: bigint('price_version_id', { mode: 'number' }),
    hourlyPrice: numeric('hourly_price', { precision: 18, scale: 6 }).notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    seconds: integer('seconds').notNull(),
    amount: numeric('amount', { precision: 20, scale: 6 }).notNull(),
  },
  // partitioned by month of `hour` (drizzle/0023); months past the retention are rolled up into usage_daily
  (t) => [primaryKey({ columns: [t.meterId, t.hour], name: 'usage_records_pkey' })],
);

/**
 * Usage records past the retention (retention_settings.usage_raw_months) rolled up per meter and
 * UTC day before their month's partition is dropped: `amount` is the exact sum of the records
 * (6 decimals, nothing rounded), `hours` how many records, `seconds` their seconds. Partitioned by
 * month of `day` like the records. Readers of usage over a period read the union of both.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    meterId: bigint('meter_id', { mode: 'number' }).notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    customerId: integer('customer_id').notNull(),
    hours: integer('hours').notNull(),
    seconds: bigint('seconds', { mode: 'number' }).notNull(),
    amount: numeric('amount', { precision: 24, scale: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.meterId, t.day], name: 'usage_daily_pkey' }), index('usage_daily_customer_idx').on(t.customerId, t.day)],
);

/**
 * One row per customer and hour: the sum of its usage records and the whole cents charged
 * (prepaid: the BalanceLogCharge entry with reference usage_charge/<id>) or accrued for the
 * monthly invoice (postpaid). `carry` is the exact remainder below one cent carried to the next
 * hour, so no rounding drifts: Σ amount + carry = Σ usage_amount for every customer, always.
 */
export const usageCharges = pgTable(
  'usage_charges',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    postpaid: boolean('postpaid').notNull(),
    usageRows: integer('usage_rows').notNull(),
    usageAmount: numeric('usage_amount', { precision: 20, scale: 6 }).notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    carry: numeric('carry', { precision: 10, scale: 6 }).notNull(),
  },
  (t) => [
    // partitioned by month of `hour` (drizzle/0023): the partition key is part of every unique key
    primaryKey({ columns: [t.id, t.hour], name: 'usage_charges_pkey' }),
    uniqueIndex('usage_charges_customer_hour_unique').on(t.customerId, t.hour),
    // the monthly postpaid invoicing finds its customers here; prepaid rows are not indexed
    index('usage_charges_postpaid_hour_idx').on(t.hour).where(sql`${t.postpaid}`),
  ],
);

/**
 * Progress of the hourly job, one row per clock hour: `cursor_customer_id` is the last customer
 * charged for that hour (chunks go in customer order), `completed_at` set when every meter is.
 */
export const chargeHours = pgTable('charge_hours', {
  hour: timestamp('hour', { withTimezone: true }).primaryKey(),
  cursorCustomerId: integer('cursor_customer_id').notNull().default(sql`0`),
  usageRows: bigint('usage_rows', { mode: 'number' }).notNull().default(sql`0`),
  customers: integer('customers').notNull().default(sql`0`),
  charged: numeric('charged', { precision: 18, scale: 2 }).notNull().default('0'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

/** Billing notices already sent, so each is sent once per episode (low balance, runway, suspension). */
export const billingNotices = pgTable(
  'billing_notices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind').notNull(),
    /** an episode key: the notice is sent once per (customer, kind, episode) */
    episode: text('episode').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('billing_notices_unique').on(t.customerId, t.kind, t.episode)],
);

/** Billing thresholds staff can change (one row, id 1; defaults apply until it exists). */
export const chargingSettings = pgTable(
  'charging_settings',
  {
    id: integer('id').primaryKey().default(sql`1`),
    /** the runway warning e-mail goes out when the balance lasts fewer hours than this */
    runwayWarningHours: integer('runway_warning_hours').notNull().default(sql`72`),
    /** the low-balance e-mail (the last notice before suspension) below this many hours */
    lowBalanceWarningHours: integer('low_balance_warning_hours').notNull().default(sql`24`),
    /** days from a postpaid invoice's issue to its due date */
    postpaidDueDays: integer('postpaid_due_days').notNull().default(sql`14`),
    /** days an OVERDUE postpaid invoice may stay unpaid before the account is suspended */
    postpaidSuspendGraceDays: integer('postpaid_suspend_grace_days').notNull().default(sql`7`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('charging_settings_singleton', sql`${t.id} = 1`)],
);

/**
 * A customer the hourly charge set aside: charging their hours failed (a value no column can hold,
 * a constraint), so their hours from `first_hour` on are left out of the hourly run (every other
 * customer is charged and the cursor moves on) and retried for them alone, from that hour, on each
 * run after `next_retry_at` or when staff ask (GET/POST /api/backoffice/billing/charge-failures).
 * One open row per customer; `resolved_at` is set when their hours are charged again.
 * `error` is the database's words (never SQL); `error_code` its SQLSTATE or the AppError code.
 */
export const chargeFailures = pgTable(
  'charge_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    firstHour: timestamp('first_hour', { withTimezone: true }).notNull(),
    errorCode: text('error_code').notNull(),
    error: text('error').notNull(),
    attempts: integer('attempts').notNull().default(sql`1`),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('charge_failures_open_unique').on(t.customerId).where(sql`${t.resolvedAt} is null`)],
);

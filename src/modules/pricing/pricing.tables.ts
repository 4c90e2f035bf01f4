import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locations } from '../lookups/lookups.tables.js';

/** What is priced per location: vCPU, RAM, disk, public IP, private network, object and block storage GB. */
export const components = pgTable(
  'components',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** compute | storage | network */
    type: text('type').notNull(),
    /** what one unit is: vCPU, GB, IP, network */
    unit: text('unit').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('components_code_unique').on(t.code), check('components_type', sql`${t.type} in ('compute', 'storage', 'network')`)],
);

/**
 * A price change waiting for its date (docs/api.md, "Catalog, prices and compute"): `waiting` → `applied` by the
 * pricing.apply-schedules job (it writes the new price_versions row), or `cancelled` before its
 * date. Rows are never deleted, so the history of who scheduled what stays.
 */
export const priceSchedules = pgTable(
  'price_schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    priceKey: text('price_key').notNull(),
    /** null: a tier's price wherever the tier is offered (every active location when it applies) */
    locationId: integer('location_id').references(() => locations.id),
    /** what the key names, for the answers */
    componentId: integer('component_id'),
    tierId: integer('tier_id'),
    storageTierId: integer('storage_tier_id'),
    monthlyPrice: numeric('monthly_price', { precision: 18, scale: 2 }).notNull(),
    hourlyPrice: numeric('hourly_price', { precision: 18, scale: 6 }).notNull(),
    effectiveDate: timestamp('effective_date', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('waiting'),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: integer('cancelled_by'),
    priceVersionId: integer('price_version_id'),
  },
  (t) => [
    index('price_schedules_due_idx').on(t.status, t.effectiveDate),
    uniqueIndex('price_schedules_one_per_instant').on(t.priceKey, sql`coalesce(${t.locationId}, 0)`, t.effectiveDate).where(sql`${t.status} <> 'cancelled'`),
    check('price_schedules_status', sql`${t.status} in ('waiting', 'applied', 'cancelled')`),
    check('price_schedules_non_negative', sql`${t.monthlyPrice} >= 0`),
    // MONEY_INPUT_MAX (platform/money.ts): the bound of every price a request may set
    check('price_schedules_bounded', sql`${t.monthlyPrice} <= 1000000000`),
  ],
);

export const pricingConstraintMeanings = {
  price_schedules_one_per_instant: { code: 'SCHEDULE_EXISTS', message: 'A price change for this item and location is already scheduled at this instant' },
} as const;

import { bigint, check, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { locations } from '../lookups/lookups.tables.js';

/**
 * Every price the platform charges, as immutable versions: the price of `price_key` at
 * `location_id` in force at instant t is the row with the greatest `effective_from` <= t.
 * A change never edits a row; a scheduled change becomes a new row when it applies.
 * `price_key` names what is priced: `tier:<id>`, `storage_tier:<id>`, `component:<id>`.
 * `hourly_price` is monthly_price / 730 kept to 6 decimals; charging reads it.
 */
export const priceVersions = pgTable(
  'price_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    priceKey: text('price_key').notNull(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    monthlyPrice: numeric('monthly_price', { precision: 18, scale: 2 }).notNull(),
    hourlyPrice: numeric('hourly_price', { precision: 18, scale: 6 }).notNull(),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('price_versions_lookup_idx').on(t.priceKey, t.locationId, t.effectiveFrom),
    check('price_versions_non_negative', sql`${t.monthlyPrice} >= 0 AND ${t.hourlyPrice} >= 0`),
    // MONEY_INPUT_MAX (platform/money.ts): the bound of every price a request may set
    check('price_versions_bounded', sql`${t.monthlyPrice} <= 1000000000`),
  ],
);

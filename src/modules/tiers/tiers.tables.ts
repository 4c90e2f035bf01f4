import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locations } from '../lookups/lookups.tables.js';

/** Machine families (general purpose, CPU optimised, ...). */
export const tierTypes = pgTable(
  'tier_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tier_types_name_unique').on(sql`lower(${t.name})`)],
);

export interface LoadbalanceConfig {
  max_forwarding_rules?: number;
  max_targets?: number;
  algorithms?: ('round_robin' | 'least_connections')[];
  protocols?: ('http' | 'https' | 'tcp' | 'udp')[];
}

/**
 * A VM size. Hidden (`is_visible` false) tiers are not offered for new VMs; retired ones
 * (`deleted_at`) neither, and are left out of the lists; VMs on them keep running and renewing,
 * and their price history stays.
 */
export const tiers = pgTable(
  'tiers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    tierTypeId: integer('tier_type_id')
      .notNull()
      .references(() => tierTypes.id),
    cpu: integer('cpu').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    diskGb: integer('disk_gb').notNull(),
    /** percent of its vCPUs a VM of the tier may use */
    cpuLimit: integer('cpu_limit').notNull(),
    /** null: offered in every location where it has a price */
    locationId: integer('location_id').references(() => locations.id),
    isVisible: boolean('is_visible').notNull().default(true),
    loadbalanceEnabled: boolean('loadbalance_enabled').notNull().default(false),
    loadbalanceConfig: jsonb('loadbalance_config').$type<LoadbalanceConfig>().notNull().default(sql`'{}'::jsonb`),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tiers_type_idx').on(t.tierTypeId),
    uniqueIndex('tiers_name_unique').on(sql`lower(${t.name})`).where(sql`${t.deletedAt} is null`),
    check('tiers_sizes', sql`${t.cpu} > 0 AND ${t.memoryMb} > 0 AND ${t.diskGb} > 0 AND ${t.cpuLimit} between 1 and 100`),
  ],
);

export const tiersConstraintMeanings = {
  tier_types_name_unique: { code: 'NAME_TAKEN', message: 'A tier type with this name exists' },
  tiers_name_unique: { code: 'NAME_TAKEN', message: 'A tier with this name exists' },
} as const;

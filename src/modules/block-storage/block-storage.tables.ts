import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locations } from '../lookups/lookups.tables.js';

/** Storage machines of a location: volumes are carved out of their capacity. */
export const blockStorageMachines = pgTable(
  'block_storage_machines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    name: text('name').notNull(),
    hypervisorIp: text('hypervisor_ip').notNull(),
    capacityGb: integer('capacity_gb').notNull(),
    usedGb: integer('used_gb').notNull().default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('block_storage_machines_location_idx').on(t.locationId),
    uniqueIndex('block_storage_machines_name_unique').on(t.name),
    check('block_storage_machines_room', sql`${t.usedGb} >= 0 AND ${t.usedGb} <= ${t.capacityGb}`),
  ],
);

/** Kinds of volume (standard SSD, NVMe, ...); a disabled tier is not offered for new VMs. */
export const storageTiers = pgTable(
  'storage_tiers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('storage_tiers_name_unique').on(sql`lower(${t.name})`)],
);

export const blockStorageConstraintMeanings = {
  storage_tiers_name_unique: { code: 'NAME_TAKEN', message: 'A storage tier with this name exists' },
} as const;

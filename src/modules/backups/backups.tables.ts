import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { admins } from '../admins/admins.tables.js';
import { vms } from '../compute/compute.tables.js';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';

/**
 * What staff set for every backup plan: the price as a share of the VM's own price, how many
 * backups a VM keeps, and the lease of the chunk sweep (while it runs no backup starts, and
 * while a backup runs the sweep waits: a sweep never deletes a chunk a backup is about to refer
 * to). Exactly one row, id 1.
 */
export const backupPolicy = pgTable(
  'backup_policy',
  {
    id: integer('id').primaryKey().default(sql`1`),
    /** percent of the VM's tier price a VM with backups on pays on top (20 = a fifth) */
    priceSharePercent: numeric('price_share_percent', { precision: 5, scale: 2 }).notNull().default('20'),
    /** backups kept per VM: the oldest completed beyond this are deleted */
    keepLast: integer('keep_last').notNull().default(7),
    /** the chunk sweep holds the store until then (null: not running) */
    sweepUntil: timestamp('sweep_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('backup_policy_singleton', sql`${t.id} = 1`),
    check('backup_policy_share', sql`${t.priceSharePercent} > 0 and ${t.priceSharePercent} <= 100`),
    check('backup_policy_keep', sql`${t.keepLast} between 1 and 100`),
  ],
);

/** A VM's backup plan: switched on and off by its owner, daily at an hour (UTC) or weekly on a weekday at an hour. */
export const vmBackupPlans = pgTable(
  'vm_backup_plans',
  {
    vmId: integer('vm_id')
      .primaryKey()
      .references(() => vms.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    enabled: boolean('enabled').notNull().default(false),
    /** daily | weekly */
    frequency: text('frequency').notNull().default('daily'),
    /** hour of the day, UTC */
    hour: integer('hour').notNull().default(2),
    /** weekly: 0 Sunday … 6 Saturday */
    weekday: integer('weekday'),
    /** when it was last switched on: no scheduled slot before it is taken */
    enabledAt: timestamp('enabled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('vm_backup_plans_enabled_idx').on(t.enabled),
    check('vm_backup_plans_frequency', sql`${t.frequency} in ('daily', 'weekly')`),
    check('vm_backup_plans_hour', sql`${t.hour} between 0 and 23`),
    check('vm_backup_plans_weekday', sql`(${t.frequency} = 'daily' and ${t.weekday} is null) or (${t.frequency} = 'weekly' and ${t.weekday} between 0 and 6)`),
  ],
);

export const BACKUP_STATUSES = ['pending', 'running', 'completed', 'failed', 'deleted'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

/**
 * One backup of a VM's boot disk. Durable work (its lease, attempts and next attempt here): pending
 * → running (leased) → completed once its manifest is stored, or back to pending with the reason
 * and a later attempt, or failed after the last attempt. A scheduled backup is one per VM and slot.
 * `deleted`: past the VM's keep-last (its manifest removed; the chunk sweep frees its chunks).
 */
export const vmBackups = pgTable(
  'vm_backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    /** the VM's name when it was taken (the VM may be gone when it is restored) */
    vmName: text('vm_name').notNull(),
    /** scheduled | manual */
    trigger: text('trigger').notNull(),
    /** scheduled: the slot it is for (one backup per VM and slot) */
    slot: timestamp('slot', { withTimezone: true }),
    status: text('status').$type<BackupStatus>().notNull().default('pending'),
    /** the last failure, as the customer may read it */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** the disk's size (what a restore needs room for) */
    diskBytes: bigint('disk_bytes', { mode: 'number' }),
    /** compressed bytes of the chunks the manifest refers to (shared chunks counted in full) */
    storedBytes: bigint('stored_bytes', { mode: 'number' }),
    /** bytes this backup uploaded (chunks not already in the store, and its manifest) */
    sentBytes: bigint('sent_bytes', { mode: 'number' }),
    chunks: integer('chunks'),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('vm_backups_slot_unique').on(t.vmId, t.slot).where(sql`${t.slot} is not null`),
    index('vm_backups_vm_idx').on(t.vmId, t.createdAt),
    index('vm_backups_customer_idx').on(t.customerId, t.createdAt),
    index('vm_backups_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'running')`),
    check('vm_backups_status', sql`${t.status} in ('pending', 'running', 'completed', 'failed', 'deleted')`),
    check('vm_backups_trigger', sql`${t.trigger} in ('scheduled', 'manual')`),
  ],
);

export const RESTORE_STATUSES = ['waiting', 'pending', 'running', 'completed', 'failed'] as const;
export type RestoreStatus = (typeof RESTORE_STATUSES)[number];

/**
 * A restore of a backup onto a VM: its own (`same`) or a new one made for it (`new`: `waiting`
 * until that VM runs). Durable work as a backup is; the VM carries the task `restore` from the
 * claim to the end, so no other change of it runs meanwhile.
 */
export const backupRestores = pgTable(
  'backup_restores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    backupId: uuid('backup_id')
      .notNull()
      .references(() => vmBackups.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    /** same | new */
    kind: text('kind').notNull(),
    status: text('status').$type<RestoreStatus>().notNull(),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** staff who asked for it on the customer's behalf */
    adminId: integer('admin_id').references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('backup_restores_vm_idx').on(t.vmId, t.createdAt),
    index('backup_restores_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('waiting', 'pending', 'running')`),
    check('backup_restores_status', sql`${t.status} in ('waiting', 'pending', 'running', 'completed', 'failed')`),
    check('backup_restores_kind', sql`${t.kind} in ('same', 'new')`),
  ],
);

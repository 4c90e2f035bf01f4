import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../admins/admins.tables.js';
import { vms } from '../compute/compute.tables.js';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';

export const SNAPSHOT_STATUSES = ['Creating', 'Available', 'Failed', 'Deleting', 'Deleted'] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];
export type SnapshotConsistency = 'application' | 'crash';
/** Snapshot deletes in the resource lifecycle (platform/lifecycle); taking and restoring one are tasks of its VM. */
export const SNAPSHOT_KIND = 'snapshot';

/**
 * A point-in-time copy of a VM's boot disk (and its volume when asked), kept at the datacenter
 * apart from the VM: it outlives the VM. Creating → Available (or Failed) by the VM's `snapshot`
 * task; Deleting → Deleted by the lifecycle. `size_gb` is what it is billed by (its stored size,
 * rounded up to whole GB); `disk_gb` is the boot disk it copies (a VM made from it needs at least that).
 */
export const vmSnapshots = pgTable(
  'vm_snapshots',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    name: text('name').notNull(),
    status: text('status').$type<SnapshotStatus>().notNull().default('Creating'),
    includeVolume: boolean('include_volume').notNull().default(false),
    /** the OS on the boot disk when it was taken */
    os: text('os').notNull(),
    diskGb: integer('disk_gb').notNull(),
    volumeGb: integer('volume_gb'),
    consistency: text('consistency').$type<SnapshotConsistency>(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sizeGb: integer('size_gb'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('vm_snapshots_customer_idx').on(t.customerId, t.status),
    index('vm_snapshots_vm_idx').on(t.vmId, t.status),
    check('vm_snapshots_status', sql`${t.status} in ('Creating', 'Available', 'Failed', 'Deleting', 'Deleted')`),
    check('vm_snapshots_consistency', sql`${t.consistency} is null or ${t.consistency} in ('application', 'crash')`),
  ],
);

/**
 * A restore asked for and not yet done: the VM's `restore` task reads which snapshot, and whether
 * the VM runs afterwards. It stays through an Error, so the VM's retry restores the same snapshot.
 */
export const vmSnapshotRestores = pgTable('vm_snapshot_restores', {
  vmId: integer('vm_id')
    .primaryKey()
    .references(() => vms.id),
  snapshotId: integer('snapshot_id')
    .notNull()
    .references(() => vmSnapshots.id),
  /** the VM runs once restored (it ran when asked) */
  start: boolean('start').notNull(),
  /** staff restored it on the customer's behalf */
  adminId: integer('admin_id').references(() => admins.id),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
});

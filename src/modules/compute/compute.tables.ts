import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { blockStorageMachines, storageTiers } from '../block-storage/block-storage.tables.js';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';
import { tiers } from '../tiers/tiers.tables.js';

export const VM_STATUSES = ['Creating', 'Running', 'Stopped', 'Suspended', 'Error', 'Deleting', 'Deleted'] as const;
export type VmStatus = (typeof VM_STATUSES)[number];
/** The datacenter work a VM waits for; the job of that name does it. */
export const VM_TASKS = ['create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue', 'snapshot', 'restore', 'restore_backup'] as const;
export type VmTask = (typeof VM_TASKS)[number];
/** VMs in the resource lifecycle (platform/lifecycle). */
export const VM_KIND = 'vm';

/** A copy of an SSH key the VM was created with (deleting or renaming the key later changes no VM). */
export interface VmSshKeyCopy {
  id: number;
  name: string;
  fingerprint: string;
  publicKey: string;
}

/**
 * A customer's virtual machine. `task` is the datacenter work it waits for (one at a time; its
 * lifecycle row counts the changes and keeps the last error); a refused task sets status Error with
 * `failed_task`, and a retry asks for the task again. The public IP is unique per location among
 * the VMs that still hold one.
 */
export const vms = pgTable(
  'vms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    tierId: integer('tier_id')
      .notNull()
      .references(() => tiers.id),
    os: text('os').notNull(),
    /** the tier's size when the VM was created (a tier's size never changes, kept for reading) */
    cpu: integer('cpu').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    diskGb: integer('disk_gb').notNull(),
    status: text('status').$type<VmStatus>().notNull().default('Creating'),
    task: text('task').$type<VmTask>(),
    failedTask: text('failed_task').$type<VmTask>(),
    /** Running or Stopped: what a Suspended VM returns to when resumed */
    suspendedFrom: text('suspended_from'),
    /** the change a suspension took over before the datacenter had done it (resize, rebuild, rescue, unrescue, restore): asked again when resumed */
    resumeTask: text('resume_task').$type<VmTask>(),
    suspendReason: text('suspend_reason'),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    publicIp: text('public_ip'),
    /** task resize: the tier it becomes (its tier_id, size and meters change when the datacenter is done) */
    resizeTierId: integer('resize_tier_id').references(() => tiers.id),
    /** task resize: Running or Stopped, what it was when asked and what it ends as (a retry after Error too) */
    resizeFromStatus: text('resize_from_status').$type<'Running' | 'Stopped'>(),
    blockStorageTierId: integer('block_storage_tier_id').references(() => storageTiers.id),
    blockStorageGb: integer('block_storage_gb'),
    blockStorageMachineId: integer('block_storage_machine_id').references(() => blockStorageMachines.id),
    /** the SSH keys chosen at create, copied in the order asked; the datacenter puts them on the guest */
    sshKeys: jsonb('ssh_keys').$type<VmSshKeyCopy[]>().notNull().default(sql`'[]'::jsonb`),
    /** cloud-init user data given at create (a cloud-config or a script); the guest gets it with the platform's own settings */
    userData: text('user_data'),
    /** boots the rescue system instead of its own disk (POST .../rescue; .../unrescue ends it) */
    rescue: boolean('rescue').notNull().default(false),
    /** made from this snapshot (the snapshots module's vm_snapshots.id): its boot disk is a copy of it; a rebuild installs the OS image */
    sourceSnapshotId: integer('source_snapshot_id'),
    /** rebuilds asked for so far: the guest's instance id changes with it, so cloud-init runs again */
    rebuilds: integer('rebuilds').notNull().default(0),
    externalId: text('external_id'),
    hypervisor: text('hypervisor'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** when it last became Running (for operators and charging) */
    startedAt: timestamp('started_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('vms_customer_idx').on(t.customerId, t.status),
    index('vms_location_tier_idx').on(t.locationId, t.tierId, t.status),
    uniqueIndex('vms_public_ip_unique').on(t.locationId, t.publicIp).where(sql`${t.publicIp} is not null`),
    check('vms_status', sql`${t.status} in ('Creating', 'Running', 'Stopped', 'Suspended', 'Error', 'Deleting', 'Deleted')`),
    check('vms_task', sql`${t.task} is null or ${t.task} in ('create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue', 'snapshot', 'restore', 'restore_backup')`),
    check('vms_resume_task', sql`${t.resumeTask} is null or ${t.resumeTask} in ('resize', 'rebuild', 'rescue', 'unrescue', 'restore')`),
  ],
);

export const computeConstraintMeanings = {
  vms_public_ip_unique: { code: 'CONFLICT', message: 'The public address was taken at the same moment; please try again' },
} as const;

import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { CreateVmBody } from '../compute/index.js';
import { SNAPSHOT_STATUSES } from './snapshots.tables.js';

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'any text but blank (up to 100 characters)' });

export const Snapshot = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  vm_id: Type.Integer({ description: 'the VM it was taken of (it may be Deleted since: a snapshot outlives its VM)' }),
  location_id: Type.Integer(),
  status: Type.String({ enum: [...SNAPSHOT_STATUSES], description: 'Creating → Available (or Failed); Deleting → Deleted' }),
  include_volume: Type.Boolean({ description: "it also holds the VM's block storage volume" }),
  os: Type.String({ description: 'the operating system on the boot disk when it was taken' }),
  disk_gb: Type.Integer({ description: 'the boot disk it copies: a VM made from it needs a tier with at least this disk' }),
  volume_gb: Type.Union([Type.Integer(), Type.Null()]),
  consistency: Type.Union([Type.String({ enum: ['application', 'crash'] }), Type.Null()], {
    description: "application: the guest's file systems were frozen through its QEMU guest agent while the copy began; crash: as a power cut would leave the disks (no agent). null until Available",
  }),
  size_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'stored size, null until Available' }),
  size_gb: Type.Union([Type.Integer(), Type.Null()], { description: 'the billed size: stored size in whole GB, rounded up (at least 1)' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why it Failed' }),
  restoring: Type.Boolean({ description: 'a restore of its VM from it is under way (it cannot be deleted meanwhile)' }),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
});

export const AdminSnapshot = Type.Object({ ...Snapshot.properties, customer_id: Type.Integer() });

export const CreateSnapshotBody = StrictObject({
  name: Name,
  include_volume: Type.Optional(Type.Boolean({ description: "also snapshot the VM's block storage volume (default false: the boot disk only)" })),
});

export const RenameSnapshotBody = StrictObject({ name: Name });

export const CreateVmFromSnapshotBody = StrictObject({
  name: CreateVmBody.properties.name,
  tier_id: IntId,
  ssh_key_ids: CreateVmBody.properties.ssh_key_ids,
});

export const SnapshotParams = Type.Object({ id: IntId });

export const SnapshotListQuery = Type.Object({ ...PageQuery.properties, vm_id: Type.Optional(IntId) });

export const AdminSnapshotListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(IntId),
  vm_id: Type.Optional(IntId),
  include_deleted: Type.Optional(Type.Boolean()),
});

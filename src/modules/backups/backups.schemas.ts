import { Type, type Static } from 'typebox';
import { IntId, Money, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Uuid = Type.String({ format: 'uuid' });

export const VmBackupParams = Type.Object({ id: IntId });
export const BackupParams = Type.Object({ id: IntId, backup_id: Uuid });
export const BackupIdParams = Type.Object({ backup_id: Uuid });
export const RestoreIdParams = Type.Object({ restore_id: Uuid });

export const PlanBody = StrictObject({
  enabled: Type.Boolean({ description: 'backups on or off (on: the VM pays its share from now)' }),
  frequency: Type.Optional(Type.String({ enum: ['daily', 'weekly'], description: 'default daily' })),
  hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23, description: 'the hour of the day (UTC) the backup starts; default 2' })),
  weekday: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 6 }), Type.Null()], { description: 'weekly only: 0 Sunday … 6 Saturday' })),
});
export type PlanBodyType = Static<typeof PlanBody>;

export const Plan = Type.Object({
  vm_id: Type.Integer(),
  enabled: Type.Boolean(),
  frequency: Type.String({ enum: ['daily', 'weekly'] }),
  hour: Type.Integer(),
  weekday: Type.Union([Type.Integer(), Type.Null()]),
  next_run_at: Type.Union([Timestamp, Type.Null()]),
  keep_last: Type.Integer({ description: 'backups kept; older ones are deleted' }),
  price_share_percent: Type.Number({ description: "the share of the VM's tier price backups cost" }),
  monthly_price: Money,
  hourly_price: Type.Number(),
});

export const BackupItem = Type.Object({
  id: Uuid,
  vm_id: Type.Integer(),
  vm_name: Type.String(),
  location_id: Type.Integer(),
  trigger: Type.String({ enum: ['scheduled', 'manual'] }),
  status: Type.String({ enum: ['pending', 'running', 'completed', 'failed', 'deleted'] }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed' }),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  disk_bytes: Type.Union([Type.Integer(), Type.Null()]),
  stored_bytes: Type.Union([Type.Integer(), Type.Null()]),
  sent_bytes: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
});

export const RestoreItem = Type.Object({
  id: Uuid,
  backup_id: Uuid,
  vm_id: Type.Integer(),
  kind: Type.String({ enum: ['same', 'new'] }),
  status: Type.String({ enum: ['waiting', 'pending', 'running', 'completed', 'failed'] }),
  reason: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  by_staff: Type.Boolean(),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
});

export const VmBackups = Type.Object({ plan: Plan, backups: Type.Array(BackupItem), restores: Type.Array(RestoreItem) });

export const NewVmBody = StrictObject({
  // the rule of a VM's name at create
  name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'letters, digits, dot, dash, underscore' }),
  tier_id: IntId,
  ssh_key_ids: Type.Optional(Type.Array(IntId, { maxItems: 20 })),
});

export const NewVmAnswer = Type.Object({ restore: RestoreItem, vm_id: Type.Integer() });

export const StaffRestoreBody = StrictObject({
  vm_id: Type.Optional(IntId),
});

export const Policy = Type.Object({ price_share_percent: Type.Number(), keep_last: Type.Integer() });
export const PolicyBody = StrictObject({
  price_share_percent: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100, multipleOf: 0.01, description: "percent of the VM's tier price" })),
  keep_last: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const UsageQuery = Type.Object({ customer_id: Type.Optional(IntId), location_id: Type.Optional(IntId) }, { additionalProperties: false });
export const UsageRow = Type.Object({
  customer_id: Type.Integer(),
  location_id: Type.Integer(),
  vms_enabled: Type.Integer(),
  backups: Type.Integer(),
  stored_bytes: Type.Integer(),
  failed: Type.Integer(),
});

export const StaffListQuery = Type.Object({ vm_id: Type.Optional(IntId), customer_id: Type.Optional(IntId) }, { additionalProperties: false });

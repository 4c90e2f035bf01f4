import { Type } from 'typebox';
import { IntId, Money, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';
import { VM_STATUSES, VM_TASKS } from './compute.tables.js';
import { MAX_KEYS_PER_VM } from '../ssh-keys/index.js';

export const OPERATING_SYSTEMS = ['ubuntu-24.04', 'ubuntu-22.04', 'debian-12', 'rocky-9', 'almalinux-9'] as const;
export const DEFAULT_OS = 'ubuntu-24.04';

const Status = Type.String({ enum: [...VM_STATUSES] });
const Task = Type.String({ enum: [...VM_TASKS] });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const Vm = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  location_id: Type.Integer(),
  tier_id: Type.Integer(),
  os: Type.String(),
  status: Status,
  pending_action: Nullable(Task),
  public_ip: Nullable(Type.String()),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer(),
  ssh_key_ids: Type.Array(Type.Integer(), { description: 'the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM)' }),
  ssh_keys: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), fingerprint: Type.String({ description: 'SHA256:… as ssh-keygen -l prints it' }) }), {
    description: 'what the guest was given of each key, as it was at create',
  }),
  block_storage: Nullable(Type.Object({ tier_id: Type.Integer(), size_gb: Type.Integer() })),
  error: Nullable(Type.Object({ action: Task, message: Type.String() }, { description: 'status Error: what failed; POST .../retry runs it again' })),
  sync: Sync,
  suspend_reason: Nullable(Type.String()),
  suspended_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Nullable(Timestamp),
});

export const AdminVm = Type.Object({
  ...Vm.properties,
  customer_id: Type.Integer(),
  external_id: Nullable(Type.String()),
  hypervisor: Nullable(Type.String()),
  block_storage_machine_id: Nullable(Type.Integer()),
  started_at: Nullable(Timestamp),
});

export const CreateVmBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'letters, digits, dot, dash, underscore' }),
  location_id: IntId,
  tier_id: IntId,
  os: Type.Optional(Type.String({ enum: [...OPERATING_SYSTEMS], description: `default ${DEFAULT_OS}` })),
  block_storage_tier_id: Type.Optional(Nullable(IntId)),
  block_storage_gb: Type.Optional(Type.Integer({ minimum: 10, maximum: 16_384, description: 'volume size with block_storage_tier_id (default 20)' })),
  public_ip: Type.Optional(Type.Boolean({ description: 'attach a public IP from the location pool (default true)' })),
  ssh_key_ids: Type.Optional(
    Type.Array(IntId, { maxItems: MAX_KEYS_PER_VM, description: 'ids of your SSH keys (/api/ssh-keys) the guest lets in (cloud images: their default user); an unknown id is 400 VALIDATION_FAILED naming ssh_key_ids' }),
  ),
});

export const VmParams = Type.Object({ id: IntId });
export const VmListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Status),
  include_deleted: Type.Optional(Type.Boolean()),
});
export const AdminVmListQuery = Type.Object({
  ...VmListQuery.properties,
  customer_id: Type.Optional(IntId),
  location_id: Type.Optional(IntId),
  tier_id: Type.Optional(IntId),
  search: Type.Optional(Type.String({ maxLength: 100, description: 'name contains, or exact public IP' })),
});

export const CatalogQuery = Type.Object({ location_id: IntId });
export const CatalogTier = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  tier_type_id: Type.Integer(),
  tier_type_name: Type.String(),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer(),
  cpu_limit: Type.Integer(),
  loadbalance_enabled: Type.Boolean(),
  location_id: Type.Integer(),
  monthly_price: Money,
  hourly_price: Type.Number({ description: 'monthly / 730, 6 decimals' }),
});
export const CatalogStorageTier = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  location_id: Type.Integer(),
  monthly_price_per_gb: Money,
  hourly_price_per_gb: Type.Number(),
});

export const LocationParams = Type.Object({ id: IntId });
export const Hypervisor = Type.Object({
  name: Type.String(),
  vcpu_total: Type.Integer({ description: 'vCPUs it offers to machines' }),
  vcpu_used: Type.Integer({ description: 'vCPUs of the machines it holds' }),
  memory_mb_total: Type.Integer(),
  memory_mb_used: Type.Integer({ description: 'memory of the machines it holds' }),
  memory_mb_free: Type.Integer({ description: 'total − used (placement puts a new VM on the hypervisor with the most)' }),
  machines: Type.Integer({ description: 'machines it holds, running or not' }),
});

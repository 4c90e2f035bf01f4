import { Type } from 'typebox';
import { IntId, Money, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';
import { VM_STATUSES, VM_TASKS } from './compute.tables.js';
import { MAX_KEYS_PER_VM } from '../ssh-keys/index.js';
import { OS_CATALOG } from './operating-systems.js';
import { MAX_USER_DATA_BYTES } from './user-data.js';

export const OPERATING_SYSTEMS = OS_CATALOG.map((o) => o.id);
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
  resize: Nullable(
    Type.Object(
      { from_tier_id: Type.Integer({ description: 'the tier it is on (tier_id, and what it is charged at until the change)' }), to_tier_id: Type.Integer({ description: 'the tier it becomes' }) },
      { description: 'while a resize is under way (pending_action: resize): the tier it is leaving and the one it is moving to; tier_id, cpu, memory_mb and disk_gb change when the datacenter is done' },
    ),
  ),
  public_ip: Nullable(Type.String()),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer(),
  ssh_key_ids: Type.Array(Type.Integer(), { description: 'the SSH keys chosen at create (the ids they had; a key deleted since stays on the VM)' }),
  ssh_keys: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), fingerprint: Type.String({ description: 'SHA256:… as ssh-keygen -l prints it' }) }), {
    description: 'what the guest was given of each key, as it was at create',
  }),
  login_user: Nullable(Type.String({ description: 'the user to log in as over SSH with the VM\'s keys (ssh <login_user>@<public_ip>): the default user of its OS image, with sudo' })),
  has_user_data: Type.Boolean({ description: 'true when it was created with user_data (the data itself is not shown again)' }),
  block_storage: Nullable(Type.Object({ tier_id: Type.Integer(), size_gb: Type.Integer() })),
  rescue: Type.Boolean({ description: 'it boots the rescue system instead of its own disk (POST .../rescue; .../unrescue ends it)' }),
  error: Nullable(Type.Object({ action: Task, message: Type.String() }, { description: 'status Error: what failed; POST .../retry runs it again' })),
  sync: Sync,
  suspend_reason: Nullable(Type.String()),
  suspended_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Nullable(Timestamp),
});

const PrivateAddress = Type.Object({ ip: Type.String(), network_uuid: Type.String(), network_name: Type.String() });

/** One VM with what it takes to reach it. */
export const VmDetail = Type.Object({
  ...Vm.properties,
  private_addresses: Type.Array(PrivateAddress, { description: 'its address on each private network it is attached to' }),
});

export const AdminVm = Type.Object({
  ...Vm.properties,
  customer_id: Type.Integer(),
  customer: Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() }, { description: 'the owner' }),
  tier_name: Type.String(),
  location_name: Type.String(),
  external_id: Nullable(Type.String()),
  hypervisor: Nullable(Type.String()),
  block_storage_machine_id: Nullable(Type.Integer()),
  started_at: Nullable(Timestamp),
});

export const AdminVmDetail = Type.Object({
  ...AdminVm.properties,
  addresses: Type.Array(
    Type.Object({
      type: Type.String({ enum: ['public', 'private'] }),
      ip: Type.String(),
      network_uuid: Nullable(Type.String({ description: 'the private network (private addresses)' })),
      network_name: Nullable(Type.String()),
    }),
    { description: 'the public address first, then one per private network' },
  ),
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
    Type.Array(IntId, { maxItems: MAX_KEYS_PER_VM, description: 'ids of your SSH keys (/api/ssh-keys) the guest lets in (cloud images: their default user, login_user); an unknown id is 400 VALIDATION_FAILED naming ssh_key_ids. Without keys the VM cannot be reached over SSH.' }),
  ),
  user_data: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_USER_DATA_BYTES,
      description:
        'cloud-init user data, at most 64 KiB of UTF-8: a cloud-config (first line "#cloud-config", then a YAML mapping) or a script (first line "#!"). It runs at the first boot, with the platform\'s own settings (hostname, network, ssh_key_ids) merged in. Anything else is 400 VALIDATION_FAILED naming user_data.',
    }),
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
export const OperatingSystem = Type.Object({
  id: Type.String({ description: 'the value of os in POST /api/compute/vm' }),
  name: Type.String(),
  login_user: Type.String({ description: 'the user that gets the VM\'s SSH keys (ssh <login_user>@<public_ip>), with sudo' }),
});
export const CatalogTier = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  tier_type_id: Type.Integer(),
  tier_type_name: Type.String(),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer(),
  cpu_limit: Type.Integer(),
  loadbalance_enabled: Type.Boolean({ description: 'true: VMs of this tier can be load balancer targets; false: a balancer refuses them (400 TARGET_NOT_ALLOWED)' }),
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

export const ConsoleTicket = Type.Object({
  ticket: Type.String({ description: 'opens one console session; only its hash is stored' }),
  expires_at: Timestamp,
  websocket_path: Type.String({ description: 'where to open the WebSocket, with the ticket in its query string' }),
});

export const ConsoleSocketQuery = StrictObject({ ticket: Type.String({ minLength: 1, maxLength: 100, description: 'the ticket of POST …/console' }) });

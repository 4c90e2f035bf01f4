import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });

export const TierType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TierTypeBody = StrictObject({ name: Name, description: Type.String({ maxLength: 500 }) });

export const LoadbalanceConfig = StrictObject(
  {
    max_forwarding_rules: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    max_targets: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    algorithms: Type.Optional(Type.Array(Type.Union([Type.Literal('round_robin'), Type.Literal('least_connections')]), { minItems: 1, maxItems: 2, uniqueItems: true })),
    protocols: Type.Optional(Type.Array(Type.Union([Type.Literal('http'), Type.Literal('https'), Type.Literal('tcp'), Type.Literal('udp')]), { minItems: 1, maxItems: 4, uniqueItems: true })),
  },
  { description: 'What a load balancer on VMs of this tier may do; an absent key means no bound' },
);

export const Tier = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  tier_type_id: Type.Integer(),
  tier_type_name: Type.String(),
  cpu: Type.Integer(),
  memory_mb: Type.Integer(),
  disk_gb: Type.Integer(),
  cpu_limit: Type.Integer({ description: 'percent of its vCPUs a VM of the tier may use' }),
  location_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null: offered in every location where it has a price' }),
  is_visible: Type.Boolean({ description: 'status: false hides it from new VMs; running VMs keep renewing' }),
  loadbalance_enabled: Type.Boolean(),
  loadbalance_config: LoadbalanceConfig,
  deleted_at: Type.Union([Timestamp, Type.Null()], { description: 'set when retired' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateTierBody = StrictObject({
  name: Name,
  tier_type_id: IntId,
  cpu: Type.Integer({ minimum: 1, maximum: 512 }),
  memory_mb: Type.Integer({ minimum: 128, maximum: 4_194_304 }),
  disk_gb: Type.Integer({ minimum: 1, maximum: 65_536 }),
  cpu_limit: Type.Integer({ minimum: 1, maximum: 100, description: 'percent of the vCPUs' }),
  location_id: Type.Optional(Type.Union([IntId, Type.Null()])),
});

export const UpdateCpuBody = StrictObject({ cpu_limit: Type.Integer({ minimum: 1, maximum: 100 }) });
export const UpdateLoadbalanceBody = StrictObject({ loadbalance_config: LoadbalanceConfig });
export const IdParams = Type.Object({ id: IntId });
export const TierListQuery = Type.Object({ include_retired: Type.Optional(Type.Boolean({ description: 'also list retired tiers' })) });

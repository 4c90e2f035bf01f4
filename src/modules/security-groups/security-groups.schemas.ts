import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';

export const GroupParams = Type.Object({ uuid: Type.String({ format: 'uuid' }) });
export const RuleParams = Type.Object({ uuid: Type.String({ format: 'uuid' }), rule_id: IntId });
export const VmParams = Type.Object({ id: IntId });
export const VmGroupParams = Type.Object({ id: IntId, uuid: Type.String({ format: 'uuid' }) });

export const CreateGroupBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  location_id: IntId,
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

export const CreateRuleBody = StrictObject({
  direction: Type.Union([Type.Literal('ingress'), Type.Literal('egress')]),
  rule_type_id: IntId,
  port_from: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: "tcp/udp rule types: defaults to the type's default_port, required when it has none; refused for icmp and any" })),
  port_to: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'defaults to port_from' })),
  remote_cidr: Type.String({ minLength: 1, maxLength: 64, description: 'e.g. 0.0.0.0/0 or 10.0.0.0/8 (no host bits set), or an IPv6 prefix' }),
});

export const Rule = Type.Object({
  id: Type.Integer(),
  direction: Type.Union([Type.Literal('ingress'), Type.Literal('egress')]),
  rule_type_id: Type.Integer(),
  protocol: Type.String(),
  port_from: Type.Union([Type.Integer(), Type.Null()]),
  port_to: Type.Union([Type.Integer(), Type.Null()]),
  remote_cidr: Type.String(),
  created_at: Timestamp,
});

export const SecurityGroup = Type.Object({
  uuid: Type.String(),
  name: Type.String(),
  description: Type.String(),
  location_id: Type.Integer(),
  rules: Type.Array(Rule),
  vm_ids: Type.Array(Type.Integer(), { description: 'the VMs the group is attached to' }),
  synced: Type.Boolean({ description: 'true once the datacenter applied the latest change (sync.state synced)' }),
  sync: Sync,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const AttachBody = StrictObject({ security_group_uuid: Type.String({ format: 'uuid' }) });

export const RuleType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  protocol: Type.String({ description: 'tcp, udp, icmp or any; tcp and udp rules need ports' }),
  description: Type.String(),
  default_port: Type.Union([Type.Integer(), Type.Null()], { description: 'the port a rule of this type gets when it names none; null: the rule must name its ports (always null for icmp and any)' }),
});

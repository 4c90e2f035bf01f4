import { Type } from 'typebox';
import { HEALTH_CHECK_PATH_PATTERN } from '../../integrations/datacenter/index.js';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';

const Protocol = Type.Union([Type.Literal('http'), Type.Literal('https'), Type.Literal('tcp'), Type.Literal('udp')]);
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Status = Type.Union([Type.Literal('Creating'), Type.Literal('Active'), Type.Literal('Error'), Type.Literal('Deleting'), Type.Literal('Deleted')]);
const Algorithm = Type.Union([Type.Literal('round_robin'), Type.Literal('least_connections')]);

export const ForwardingRuleSchema = StrictObject({ entry_protocol: Protocol, entry_port: Port, target_protocol: Protocol, target_port: Port });
const ForwardingRules = Type.Array(ForwardingRuleSchema, { minItems: 1, maxItems: 20 });
export const HealthCheckBody = StrictObject({
  protocol: Type.Union([Type.Literal('http'), Type.Literal('https'), Type.Literal('tcp')]),
  port: Port,
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: HEALTH_CHECK_PATH_PATTERN, description: "http(s) only; default /. A URL path and query: letters, digits and . _ ~ ! $ & ( ) * + , ; = : @ % / ? - (no space, #, quotes, braces or backslash)" })),
});

export const LbParams = Type.Object({ uuid: Type.String({ format: 'uuid' }) });
export const LbTargetParams = Type.Object({ uuid: Type.String({ format: 'uuid' }), vm_id: IntId });

export const CreateLbBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  location_id: IntId,
  algorithm: Algorithm,
  forwarding_rules: ForwardingRules,
  health_check: Type.Optional(Type.Union([HealthCheckBody, Type.Null()])),
  target_vm_ids: Type.Optional(Type.Array(IntId, { maxItems: 100 })),
});

export const UpdateLbBody = StrictObject(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    algorithm: Type.Optional(Algorithm),
    forwarding_rules: Type.Optional(ForwardingRules),
    health_check: Type.Optional(Type.Union([HealthCheckBody, Type.Null()])),
  },
  { minProperties: 1 },
);

export const TargetsBody = StrictObject({ vm_ids: Type.Array(IntId, { minItems: 1, maxItems: 100 }) });

export const LoadBalancer = Type.Object({
  uuid: Type.String(),
  name: Type.String(),
  location_id: Type.Integer(),
  algorithm: Algorithm,
  forwarding_rules: Type.Array(Type.Object({ entry_protocol: Protocol, entry_port: Type.Integer(), target_protocol: Protocol, target_port: Type.Integer() })),
  health_check: Type.Union([Type.Object({ protocol: Type.String(), port: Type.Integer(), path: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  target_vm_ids: Type.Array(Type.Integer()),
  status: Status,
  address: Type.Union([Type.String(), Type.Null()], { description: 'the public address, once Active' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'sync.last_error' }),
  synced: Type.Boolean({ description: 'true once the datacenter applied the latest change (sync.state synced)' }),
  sync: Sync,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const AdminLoadBalancer = Type.Object({ ...LoadBalancer.properties, customer_id: Type.Integer(), price_key: Type.String() });
export const AdminLbQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(IntId),
  status: Type.Optional(Status),
});

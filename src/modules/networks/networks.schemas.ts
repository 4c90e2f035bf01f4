import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const PrivateNetwork = Type.Object({
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid', description: 'path identifier' }),
  name: Type.String(),
  location_id: Type.Integer(),
  customer_id: Type.Integer(),
  network_ip: Type.String({ description: 'network address, chosen by the service inside 10.0.0.0/8' }),
  cidr: Type.Integer({ description: 'prefix length, 16 to 24' }),
  gateway: Type.String({ description: 'the network\'s .1, never handed to an instance' }),
  status: Type.String({ enum: ['Creating', 'ACTIVE'], description: 'Creating until the datacenter has provisioned it, then ACTIVE' }),
  ip_usage: Type.Object(
    { used: Type.Integer({ description: 'addresses assigned (or being attached or detached)' }), total: Type.Integer({ description: 'host addresses: all but network, gateway and broadcast' }) },
    { description: 'IP occupation of the network' },
  ),
  sync: Sync,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PrivateIp = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  ip_description: Type.String({ description: 'the instance\'s name when it was assigned' }),
  instance_id: Type.Integer(),
  instance_type: Type.String({ enum: ['VM'] }),
  pos_x: Type.Integer(),
  pos_y: Type.Integer(),
  is_registered: Type.Boolean({ description: 'true once the datacenter has attached the address' }),
  pending_action: Nullable(Type.String({ enum: ['attach', 'detach'], description: 'datacenter work under way' })),
  sync: Sync,
  created_at: Timestamp,
});

export const NetworkGraph = Type.Object({
  private_network_id: Type.Integer(),
  nodes: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String() })),
});

export const CreateNetworkBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9][A-Za-z0-9._ -]*$', description: 'letters, digits, space, dot, dash, underscore' }),
  location_id: IntId,
  cidr: Type.Integer({ minimum: 16, maximum: 24, description: 'prefix length of the network (16 to 24)' }),
});

export const AssignBody = StrictObject({
  instance_id: IntId,
  instance_type: Type.String({ enum: ['VM'], description: 'VM (the only instance type so far)' }),
});

export const NetworkParams = Type.Object({ uuid: Type.String({ format: 'uuid' }) });
export const UnassignParams = Type.Object({ uuid: Type.String({ format: 'uuid' }), instance_id: IntId });

export const AdminPrivateNetwork = Type.Object({
  ...PrivateNetwork.properties,
  status: Type.String({ enum: ['Creating', 'Active', 'Deleted'], description: 'the stored status' }),
  pending_action: Nullable(Type.String({ enum: ['create', 'delete'], description: 'datacenter work under way (delete: the cleanup after a soft delete)' })),
  external_id: Nullable(Type.String()),
  last_error: Nullable(Type.String({ description: 'the last datacenter failure of the pending action (sync.last_error; retried by itself at sync.next_retry_at)' })),
  deleted_at: Nullable(Timestamp),
});
export const AdminNetworkDetail = Type.Object({ ...AdminPrivateNetwork.properties, ips: Type.Array(PrivateIp) });
export const AdminNetworkListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(IntId),
  location_id: Type.Optional(IntId),
  include_deleted: Type.Optional(Type.Boolean()),
});

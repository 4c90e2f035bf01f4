import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { RESOURCE_KINDS } from './customer-resources.repository.js';

export const CustomerIdParams = Type.Object({ id: IntId });
export const SessionParams = Type.Object({
  id: IntId,
  sid: Type.String({ minLength: 1, maxLength: 64, description: "a device session id, or 'all' for every session of the customer" }),
});

export const DeviceSession = Type.Object({
  id: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  last_access_at: Timestamp,
  impersonated: Type.Boolean({ description: 'a session an admin opened by impersonation' }),
});

export const RevokedSessions = Type.Object({ revoked: Type.Integer() });

export const MaxSessionBody = StrictObject({
  customer_id: IntId,
  max_session: Type.Integer({ minimum: 1, maximum: 100 }),
});
export const MaxSessionResult = Type.Object({ customer_id: Type.Integer(), max_session: Type.Integer(), sessions_revoked: Type.Integer() });

export const ForceDisableBody = StrictObject({
  customer_id: IntId,
  reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S', description: 'kept in the audit log and sent to the customer' }),
});
export const ForceDisableResult = Type.Object({ customer_id: Type.Integer(), is_2fa_active: Type.Boolean() });

export const Impersonation = Type.Object({
  customer_id: Type.Integer(),
  session_id: Type.String(),
  expires_at: Timestamp,
});

const Kind = Type.String({ enum: [...RESOURCE_KINDS], description: 'vm, network (private network), volume (block storage of a VM), bucket (object storage), load_balancer' });

export const CustomerResourcesQuery = Type.Object({ ...PageQuery.properties, kind: Type.Optional(Kind) });

export const CustomerResource = Type.Object({
  kind: Kind,
  id: Type.String({ description: 'the id the resource has in its own API: a VM id (a volume: its VM), a network, bucket or balancer uuid' }),
  name: Type.String(),
  status: Type.String(),
  location_id: Type.Integer(),
  location_name: Type.String(),
  detail: Type.String({ description: 'a one-line summary for people: tier and address, size, network range, algorithm and address' }),
  created_at: Timestamp,
});

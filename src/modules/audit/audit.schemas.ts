import { Type } from 'typebox';
import { IntId, PageQuery, Timestamp } from '../../platform/http/schemas.js';

export const AuditLogQuery = Type.Object({
  ...PageQuery.properties,
  actor_type: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('customer'), Type.Literal('system'), Type.Literal('anonymous')])),
  actor_id: Type.Optional(IntId),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const ActivityQuery = PageQuery;

export const ActivityEntry = Type.Object({
  id: Type.Integer(),
  by: Type.Object(
    { customer_id: Type.Union([Type.Integer(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) },
    { description: 'who did it: the member of the account (the account holder for their own actions)' },
  ),
  action: Type.String({ description: 'e.g. vm.created, vm.deleted, network.deleted, bucket.created, access_key.deleted, deposit.created, customer.login' }),
  target_type: Type.Union([Type.String(), Type.Null()], { description: 'what it acted on: vm, network, bucket, access_key, deposit, …; customer for security events' }),
  target_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Unknown({ description: 'the request as made (route, path parameters, body without secrets), or the event\'s details' }),
  impersonated: Type.Boolean({ description: 'done by platform staff in an impersonated session of this account' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});

export const AuditLogEntry = Type.Object({
  id: Type.Integer(),
  actor_type: Type.String({ description: 'admin, customer, system or anonymous' }),
  actor_id: Type.Union([Type.Integer(), Type.Null()]),
  impersonator_admin_id: Type.Union([Type.Integer(), Type.Null()]),
  action: Type.String(),
  target_type: Type.Union([Type.String(), Type.Null()]),
  target_id: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown({ description: 'state before the change (JSON), or null' }),
  after: Type.Unknown({ description: 'state after the change (JSON), or null' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});

import { Type } from 'typebox';
import { IntId, PageQuery, Timestamp } from '../../platform/http/schemas.js';

export const AuditLogQuery = Type.Object({
  ...PageQuery.properties,
  actor_id: Type.Optional(IntId),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
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

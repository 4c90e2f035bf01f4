import { Type } from 'typebox';
import { Instant, IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { ALL_SCOPES } from './token-scopes.js';
import { MAX_TOKEN_DAYS } from './api-tokens.service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const TokenParams = Type.Object({ id: IntId });
export const CustomerTokenParams = Type.Object({ id: IntId, token_id: IntId });

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: 'your label for the token (where it is used)' });
const Scope = Type.Union(
  ALL_SCOPES.map((s) => Type.Literal(s)),
  { description: 'family:read (GET routes), family:write (the changing routes) or family:* (both)' },
);

export const CreateTokenBody = StrictObject({
  name: Name,
  scopes: Type.Array(Scope, { minItems: 1, maxItems: ALL_SCOPES.length }),
  expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS, description: 'default 90; or give expires_at' })),
  expires_at: Type.Optional(Instant),
});

export const RenameTokenBody = StrictObject({ name: Name });

export const ApiToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  prefix: Type.String({ description: 'the first characters of the secret, to tell tokens apart' }),
  state: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  created_at: Timestamp,
  expires_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  last_used_ip: Nullable(Type.String()),
  revoked_at: Nullable(Timestamp),
});

export const CreatedToken = Type.Object({
  ...ApiToken.properties,
  token: Type.String({ description: 'the secret, shown this once: send it as Authorization: Bearer <token>' }),
});

export const RevokedTokens = Type.Object({ revoked: Type.Integer({ description: 'how many active tokens were revoked' }) });

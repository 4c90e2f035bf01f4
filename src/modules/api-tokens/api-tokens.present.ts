import type { ApiTokenRow } from './api-tokens.repository.js';
import type { ApiTokensService } from './api-tokens.service.js';

/* The API tokens module's answers: every row the API shows is mapped here, in one place. */

export const tokenView = (tokens: ApiTokensService) => (t: ApiTokenRow) => ({
  id: t.id,
  name: t.name,
  scopes: t.scopes,
  prefix: t.displayPrefix,
  state: tokens.stateOf(t),
  created_at: t.createdAt.toISOString(),
  expires_at: t.expiresAt.toISOString(),
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
  last_used_ip: t.lastUsedIp,
  revoked_at: t.revokedAt?.toISOString() ?? null,
});

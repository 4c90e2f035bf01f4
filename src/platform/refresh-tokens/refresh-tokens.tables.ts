import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The refresh tokens of every kind of session, customer and staff (`realm`), as SHA-256 hashes.
 * Each is used once: a refresh marks it used and issues the next; presenting a used one again is
 * reuse and ends the session. Rows stay until a day after they expire, so reuse is recognised for
 * as long as the token could have worked (src/platform/refresh-tokens).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    realm: text('realm').notNull(),
    /** the session of the realm's own table (customer_sessions.id, admin_sessions.id) */
    sessionId: text('session_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.realm, t.sessionId), index('refresh_tokens_expires_idx').on(t.expiresAt)],
);

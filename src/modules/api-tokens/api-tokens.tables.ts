import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * A customer's personal access token. Only the SHA-256 of the secret is kept; the secret itself is
 * shown once, at creation. `last_used_at`/`last_used_ip` are written at most once a minute per
 * token, not at every request. Revoked and expired tokens stay listed (with their state) until
 * `api-tokens.prune` removes them 90 days later; an account's deletion removes its tokens.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The account the token acts on (its holder is a member of it); null: the holder's own account. */
    accountId: integer('account_id').references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** e.g. {compute:read, network:*}: see token-scopes.ts */
    scopes: text('scopes').array().notNull(),
    /** `chp_pat_` and the first 4 random characters, to tell tokens apart */
    displayPrefix: text('display_prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** 'customer' or 'staff' */
    revokedBy: text('revoked_by'),
  },
  (t) => [uniqueIndex('api_tokens_secret_hash_unique').on(t.secretHash), index('api_tokens_customer_idx').on(t.customerId, t.id)],
);

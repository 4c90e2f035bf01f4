import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/** A device session: one per login. Access JWTs carry its id (`sid`); a revoked row kills them. */
export const customerSessions = pgTable(
  'customer_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The session's end unless refreshed (its refresh tokens live in refresh_tokens, src/platform/refresh-tokens). */
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAccessAt: timestamp('last_access_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason'),
    impersonatorAdminId: integer('impersonator_admin_id'),
    /** The impersonating admin's role when the session opened: a role change ends the session. */
    impersonatorRoleId: integer('impersonator_role_id'),
    /** The account the session acts on (a team the person belongs to); null: the person's own account. */
    accountId: integer('account_id').references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('customer_sessions_customer_idx').on(t.customerId).where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * Single-use secrets sent by mail or handed out between steps: registration link, password reset
 * link, e-mail change OTP, intermediate token and link. Only a hash is stored.
 */
export const customerAuthTokens = pgTable(
  'customer_auth_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    failedAttempts: integer('failed_attempts').notNull().default(sql`0`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_auth_tokens_hash_unique').on(t.purpose, t.tokenHash),
    index('customer_auth_tokens_customer_idx').on(t.customerId, t.purpose),
  ],
);

/** A login waiting for its second factor (the `mfa_challenge` cookie names it). */
export const customerMfaChallenges = pgTable('customer_mfa_challenges', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: integer('customer_id')
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' }),
  failedAttempts: integer('failed_attempts').notNull().default(sql`0`),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** 2FA recovery codes, stored only as salted hashes (HMAC-SHA256 keyed with a per-code salt). */
export const customerRecoveryCodes = pgTable(
  'customer_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    salt: text('salt').notNull(),
    codeHash: text('code_hash').notNull(),
    hint: text('hint').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_recovery_codes_customer_idx').on(t.customerId)],
);

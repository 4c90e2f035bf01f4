import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * Who may act on a customer account, and as what. An account is a `customers` row (its wallet,
 * invoices, limits and resources stay keyed by that id); a person is the `customers` row they sign
 * in with. Every customer is the owner of its own account: the migration filled this table and a
 * trigger adds the owner row of every new customer (drizzle/routines/members_own_account.sql).
 */
export const accountMembers = pgTable(
  'account_members',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** owner | admin | billing | technical | read_only (member-permissions.ts) */
    role: text('role').notNull(),
    invitedBy: integer('invited_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.customerId], name: 'account_members_pkey' }),
    index('account_members_customer_idx').on(t.customerId),
    check('account_members_role_check', sql`${t.role} in ('owner', 'admin', 'billing', 'technical', 'read_only')`),
  ],
);

/** Account-wide member rules the owner sets. */
export const accountSettings = pgTable('account_settings', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  /** every member must have 2FA on to act on this account */
  require2fa: boolean('require_2fa').notNull().default(false),
  /** the owner closed the account: nobody may act on it any more (its rows stay, for staff and the books) */
  closedAt: timestamp('closed_at', { withTimezone: true }),
  /** who closed it (the owner at the time) */
  closedBy: integer('closed_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An invitation mailed to an address: single use, 7 days. Only the SHA-256 of its secret is kept.
 * `kind` 'invite' adds a member; 'ownership' is the owner's mailed confirmation of a transfer to
 * `target_customer_id`.
 */
export const accountInvitations = pgTable(
  'account_invitations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('invite'),
    email: text('email').notNull(),
    role: text('role').notNull(),
    targetCustomerId: integer('target_customer_id'),
    secretHash: text('secret_hash').notNull(),
    invitedBy: integer('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: integer('accepted_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('account_invitations_secret_unique').on(t.secretHash),
    index('account_invitations_account_idx').on(t.accountId, t.id),
    check('account_invitations_role_check', sql`${t.role} in ('owner', 'admin', 'billing', 'technical', 'read_only')`),
  ],
);

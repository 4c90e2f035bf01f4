import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed password (and second-factor) attempts per account, for customers and staff alike
 * (`scope`), one rule (src/platform/account-lock). `subject` names the account: `id:<n>` for an
 * existing one, `email:<lower-case address>` for an address without an account, so an unknown
 * address locks exactly like a known one and the answers do not tell them apart.
 */
export const accountLockouts = pgTable(
  'account_lockouts',
  {
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    failedCount: integer('failed_count').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subject] }), index('account_lockouts_updated_idx').on(t.updatedAt)],
);

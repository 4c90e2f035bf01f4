import { integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Idempotency-Key records (docs/decisions.md §4): one per (scope, owner, key). The row is inserted in the
 * same transaction as the work it guards, so a parallel repeat waits on the unique index and then
 * replays the stored answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** the operation, e.g. billing.deposit */
    scope: text('scope').notNull(),
    /** who sent it: "customer:12", "admin:3" */
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the canonical request body */
    requestHash: text('request_hash').notNull(),
    /** in_progress until the answer is stored */
    state: text('state').notNull().default('in_progress'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('idempotency_keys_unique').on(t.scope, t.owner, t.key)],
);

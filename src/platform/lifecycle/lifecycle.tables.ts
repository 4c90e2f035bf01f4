import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The lifecycle of every resource that lives at a backend (the datacenter, object storage): one
 * row per resource, keyed by (kind, resource_id). The API bumps `desired_generation` in the
 * transaction of a change; the apply job records `applied_generation` only while the generation it
 * applied is still the desired one. A failure of the desired generation is kept in
 * `failed_generation`, `attempts`, `last_error` and `retry_at`; `due_at` is when the sweep looks at
 * the row again (a lost job, an automatic retry). The lease lets one job at a time work on a resource.
 */
export const resourceLifecycle = pgTable(
  'resource_lifecycle',
  {
    kind: text('kind').notNull(),
    resourceId: integer('resource_id').notNull(),
    desiredGeneration: integer('desired_generation').notNull().default(1),
    appliedGeneration: integer('applied_generation').notNull().default(0),
    /** the generation whose last apply failed (last_error, attempts and retry_at are about it) */
    failedGeneration: integer('failed_generation'),
    /** failed applies in a row (back-off); 0 after a success */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    /** when a failed generation is tried again by itself; null: only a retry or a new change tries again */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** when the sweep looks at this row next; null: nothing to look at */
    dueAt: timestamp('due_at', { withTimezone: true }),
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.resourceId] }),
    index('resource_lifecycle_due_idx').on(t.dueAt).where(sql`${t.dueAt} is not null`),
    check('resource_lifecycle_generations', sql`${t.appliedGeneration} >= 0 and ${t.appliedGeneration} <= ${t.desiredGeneration}`),
  ],
);

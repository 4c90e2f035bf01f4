import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-IP request counters of the rate limits, shared by every API process: one row per
 * (limit, client) and fixed window. Rows whose window ended are deleted every few minutes
 * (platform.rate-limit-prune).
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    /** `<limit name>:<client key>` (the client key is the IP, IPv6 grouped by /64) */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_reset_idx').on(t.resetAt)],
);

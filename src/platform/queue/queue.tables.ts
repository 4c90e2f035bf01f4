import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per job execution (worker or runNow), for operators: GET /api/backoffice/jobs. */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** pg-boss job id; null for a run started by hand (runNow) */
    jobId: text('job_id'),
    /** worker | manual */
    trigger: text('trigger').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** running | succeeded | failed */
    status: text('status').notNull(),
    error: text('error'),
  },
  (t) => [index('job_runs_name_started_idx').on(t.name, t.startedAt)],
);

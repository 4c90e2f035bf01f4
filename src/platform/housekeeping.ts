import type { Clock } from './clock.js';
import type { IdempotencyStore } from './idempotency/idempotency.js';
import { defineJob, type JobQueue } from './queue/queue.js';

const DAY = 24 * 60 * 60 * 1000;
/** Answered Idempotency-Keys are replayed for this long (clients retry within minutes). */
export const IDEMPOTENCY_RETENTION_DAYS = 7;
export const JOB_RUN_RETENTION_DAYS = 30;

/** A daily job that drops what only matters for a while: old idempotency answers and job runs. */
export function housekeepingJob(deps: { idempotency: IdempotencyStore; queue: JobQueue; clock: Clock }) {
  return defineJob<object>({
    name: 'platform.housekeeping',
    schedule: '30 3 * * *',
    description: `Deletes Idempotency-Key answers older than ${IDEMPOTENCY_RETENTION_DAYS} days and job runs older than ${JOB_RUN_RETENTION_DAYS} days`,
    handler: async (_payload, ctx) => {
      const now = deps.clock.now().getTime();
      const keys = await deps.idempotency.prune(new Date(now - IDEMPOTENCY_RETENTION_DAYS * DAY));
      const runs = await deps.queue.pruneRuns(new Date(now - JOB_RUN_RETENTION_DAYS * DAY));
      ctx.log.info({ keys, runs }, 'housekeeping done');
    },
  });
}

import type { Clock } from './clock.js';
import type { IdempotencyStore } from './idempotency/idempotency.js';
import { defineJob, type JobQueue } from './queue/queue.js';

/** Answered Idempotency-Keys are replayed for this long (clients retry within minutes). */
export const IDEMPOTENCY_RETENTION_DAYS = 7;
export const JOB_RUN_RETENTION_DAYS = 30;
/** Ended sessions (revoked or expired) stay listed for support and forensics this long. */
export const ENDED_SESSION_RETENTION_DAYS = 90;
/** Expired one-time secrets (refresh tokens, mail links, OTPs, 2FA challenges) go after this. */
export const SPENT_TOKEN_RETENTION_DAYS = 1;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A daily job that drops what only matters for a while: old idempotency keys and job runs. */
export function housekeepingJob(deps: { idempotency: IdempotencyStore; queue: JobQueue; clock: Clock }) {
  return defineJob<object>({
    name: 'platform.housekeeping',
    schedule: '30 3 * * *',
    description: `Deletes Idempotency-Keys (answered or abandoned) older than ${IDEMPOTENCY_RETENTION_DAYS} days and job runs older than ${JOB_RUN_RETENTION_DAYS} days`,
    handler: async (_payload, ctx) => {
      const now = deps.clock.now().getTime();
      const keys = await deps.idempotency.prune(new Date(now - IDEMPOTENCY_RETENTION_DAYS * DAY_MS));
      const runs = await deps.queue.pruneRuns(new Date(now - JOB_RUN_RETENTION_DAYS * DAY_MS));
      ctx.log.info({ keys, runs }, 'housekeeping done');
    },
  });
}

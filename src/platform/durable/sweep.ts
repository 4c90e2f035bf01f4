import type { Logger } from 'pino';
import { defineJob, type JobDefinition } from '../queue/queue.js';
import type { DurablePolicy } from './policy.js';

/**
 * The sweep of one kind of durable work: a scheduled job, on the policy's schedule, that recovers
 * what no worker will finish by itself: leases that ran out (their worker stopped), retries whose
 * time came, work lost before it was queued (older than the policy's lostAfterMs). `run` answers
 * what it did, by name; `report` logs it (by default, one info line when anything was done).
 * The sweep only queues or wakes: the work itself runs in its own job or worker, never in the
 * sweep's transaction, and every piece of it is idempotent, so a sweep that overlaps a worker
 * makes at most a duplicate attempt that changes nothing.
 */
export function defineSweepJob<R extends Record<string, number>>(
  policy: DurablePolicy,
  def: { name: string; description: string; record?: 'all' | 'failures'; run(): Promise<R>; report?(result: R, log: Logger): void },
): JobDefinition<object> {
  return defineJob<object>({
    name: def.name,
    schedule: policy.sweepSchedule,
    description: def.description,
    ...(def.record ? { record: def.record } : {}),
    handler: async (_p, ctx) => {
      const result = await def.run();
      if (def.report) def.report(result, ctx.log);
      else if (Object.values(result).some((n) => n > 0)) ctx.log.info({ ...(result as Record<string, number>) }, `${policy.name}: sweep`);
    },
  });
}

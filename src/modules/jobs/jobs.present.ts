import type { JobRun, ScheduledRun } from '../../platform/queue/queue.js';
import type { JobInfo } from './jobs.service.js';

/* The jobs module's answers, mapped in one place. */

/** A run of a job, as the job runs log records it. */
export function jobRunView(r: JobRun) {
  return {
    trigger: r.trigger,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    status: r.status,
    error: r.error,
  };
}

/** The latest job a schedule created, as the job queue records it. */
export function scheduledRunView(r: ScheduledRun) {
  return {
    state: r.state,
    created_at: r.createdAt.toISOString(),
    started_at: r.startedAt?.toISOString() ?? null,
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}

/** A registered job with its schedule and last runs. */
export function jobView(j: JobInfo) {
  return {
    name: j.name,
    queue: j.queue,
    schedule: j.schedule,
    schedule_registered: j.scheduleRegistered,
    next_run_at: j.nextRunAt?.toISOString() ?? null,
    last_scheduled_run: j.lastScheduledRun ? scheduledRunView(j.lastScheduledRun) : null,
    description: j.description,
    last_run: j.lastRun ? jobRunView(j.lastRun) : null,
  };
}

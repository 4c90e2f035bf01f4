import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import { JobQueue, type JobRun, type ScheduledRun } from '../../platform/queue/queue.js';
import type { AdminsService } from '../admins/index.js';
import type { Actor, AuditService } from '../audit/index.js';

export interface JobInfo {
  name: string;
  queue: string;
  schedule: string | null;
  /** for a scheduled job: pg-boss holds its schedule exactly as declared */
  scheduleRegistered: boolean | null;
  /** the next time its schedule fires, from the schedule pg-boss holds (null when it holds none) */
  nextRunAt: Date | null;
  /** the latest job its schedule created, as pg-boss records it */
  lastScheduledRun: ScheduledRun | null;
  description: string | null;
  lastRun: JobRun | null;
}

/** Operators' view of the registered jobs, and "run it now" (Super Admin). */
export class JobsAdminService {
  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly admins: AdminsService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<JobInfo[]> {
    const [last, schedules, scheduledRuns] = [await this.queue.lastRuns(), await this.queue.schedules(), await this.queue.lastScheduledRuns()];
    const scheduleOf = new Map(schedules.map((s) => [s.job, s]));
    const now = this.clock.now();
    return this.queue
      .definitions()
      .map((d) => {
        const schedule = scheduleOf.get(d.name);
        return {
          name: d.name,
          queue: d.queue ?? d.name,
          schedule: d.schedule ?? null,
          scheduleRegistered: schedule ? schedule.ok : null,
          nextRunAt: schedule?.registered ? JobQueue.nextRun(schedule.registered.cron, schedule.registered.timezone, now) : null,
          lastScheduledRun: scheduledRuns.get(d.name) ?? null,
          description: d.description ?? null,
          lastRun: last.get(d.name) ?? null,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Runs the job in this process now and reports how the run went (a failing job is reported,
   * not thrown: the run itself was carried out).
   */
  async run(actor: Actor, name: string): Promise<JobRun> {
    if (!(await this.admins.isSuperAdmin(actor))) throw new ForbiddenError('Only Super Admin may run jobs');
    const def = this.queue.definition(name);
    if (!def) throw new NotFoundError('Job');
    await this.db.transaction((tx) => this.audit.record(tx, { actor, action: 'job.run', targetType: 'job', targetId: name }));
    const started = this.clock.now();
    let error: string | null = null;
    try {
      await this.queue.runNow(name, {});
    } catch (err) {
      error = String((err as Error)?.message ?? err);
    }
    const run = await this.queue.lastRun(name);
    return run ?? { name, trigger: 'manual', startedAt: started, finishedAt: this.clock.now(), status: error ? 'failed' : 'succeeded', error };
  }
}

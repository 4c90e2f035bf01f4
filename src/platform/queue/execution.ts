import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Envelope, JobDefinition, JobRegistry } from './definitions.js';
import type { RunHistory } from './run-history.js';
import type { StatementTracker } from './statements.js';

/**
 * Runs jobs: what a worker fetched (a batch handler gets its task's jobs in one call) and a job run
 * by hand; records each run in the history and counts it as running for stop().
 */
export class JobExecution {
  constructor(
    private readonly boss: PgBoss,
    private readonly registry: JobRegistry,
    private readonly history: RunHistory,
    private readonly tracker: StatementTracker,
    private readonly log: Logger,
  ) {}

  /**
   * Runs the jobs one fetch returned: a task with a batch handler gets its jobs in one call, the
   * others run one by one. A job that fails alone is failed here (pg-boss retries it); pg-boss then
   * completes the rest of the fetch, and fails all of it only if this throws.
   */
  async executeFetched(queue: string, jobs: PgBoss.Job<Envelope>[]): Promise<void> {
    const byTask = new Map<string, PgBoss.Job<Envelope>[]>();
    for (const job of jobs) byTask.set(job.data.task, [...(byTask.get(job.data.task) ?? []), job]);
    const failed: { id: string; err: unknown }[] = [];
    for (const [task, taskJobs] of byTask) {
      const def = this.registry.get(task);
      if (!def) {
        for (const job of taskJobs) failed.push({ id: job.id, err: new Error(`no handler for task ${task} on queue ${queue}`) });
        continue;
      }
      if (def.batch && taskJobs.length > 1) {
        const errors = await this.executeBatch(def, taskJobs);
        errors.forEach((err, i) => err !== undefined && failed.push({ id: taskJobs[i]!.id, err }));
        continue;
      }
      for (const job of taskJobs) {
        try {
          await this.execute(def, job.data.payload, job.id);
        } catch (err) {
          failed.push({ id: job.id, err });
        }
      }
    }
    if (failed.length === jobs.length && jobs.length === 1) throw failed[0]!.err; // pg-boss fails it, as before batches
    for (const { id, err } of failed) {
      await this.boss.fail(queue, id, { message: String((err as Error)?.message ?? err).slice(0, 1000) }).catch((e: unknown) => this.log.error({ err: e, jobId: id }, 'could not fail a job'));
    }
  }

  /** One call of a task's batch handler; per job, undefined or the error that failed it. A throw fails them all. */
  private executeBatch(def: JobDefinition<any>, jobs: PgBoss.Job<Envelope>[]): Promise<unknown[]> {
    return this.tracker.around(async () => {
      const log = this.log.child({ job: def.name, jobs: jobs.length });
      const started = Date.now();
      let errors: unknown[];
      try {
        errors = await def.batch!.handler(
          jobs.map((j) => j.data.payload),
          { jobId: undefined, log },
        );
      } catch (err) {
        errors = jobs.map(() => err ?? new Error('batch failed'));
      }
      const quiet = def.record === 'failures';
      const failedCount = errors.filter((e) => e !== undefined).length;
      log.debug({ ms: Date.now() - started, failed: failedCount }, 'job batch done');
      for (let i = 0; i < jobs.length; i++) {
        const err = errors[i];
        if (err === undefined) {
          if (!quiet) await this.history.recordEnd(await this.history.recordStart(def.name, jobs[i]!.id), 'succeeded', null);
          continue;
        }
        log.error({ err, jobId: jobs[i]!.id }, 'job failed');
        await this.history.recordFailure(def.name, jobs[i]!.id, new Date(started), String((err as Error)?.message ?? err).slice(0, 1000));
      }
      return errors;
    });
  }

  /** Runs a job's handler in this process now, as the worker would; throws what the handler throws. */
  async runNow(name: string, payload: object = {}): Promise<void> {
    const def = this.registry.get(name);
    if (!def) throw new Error(`unknown job ${name}`);
    await this.execute(def, payload, undefined);
  }

  private execute(def: JobDefinition<any>, payload: object, jobId: string | undefined): Promise<void> {
    return this.tracker.around(async () => {
      const log = this.log.child({ job: def.name, jobId });
      const started = Date.now();
      const quiet = def.record === 'failures' && jobId !== undefined;
      const runId = quiet ? undefined : await this.history.recordStart(def.name, jobId);
      try {
        await def.handler(payload, { jobId, log });
        log.debug({ ms: Date.now() - started }, 'job done');
        await this.history.recordEnd(runId, 'succeeded', null);
      } catch (err) {
        log.error({ err, ms: Date.now() - started }, 'job failed');
        const error = String((err as Error)?.message ?? err).slice(0, 1000);
        if (quiet) await this.history.recordFailure(def.name, jobId, new Date(started), error);
        else await this.history.recordEnd(runId, 'failed', error);
        throw err;
      }
    });
  }
}

import { desc, eq, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/database.js';
import { jobRuns } from './queue.tables.js';

export interface JobRun {
  name: string;
  trigger: 'worker' | 'manual';
  startedAt: Date;
  finishedAt: Date | null;
  status: 'running' | 'succeeded' | 'failed';
  error: string | null;
}

const jobRunColumns = {
  name: jobRuns.name,
  trigger: jobRuns.trigger,
  startedAt: jobRuns.startedAt,
  finishedAt: jobRuns.finishedAt,
  status: jobRuns.status,
  error: jobRuns.error,
};

/** The run history (job_runs): what ran, when, how it ended. Recording a run never makes the job itself fail. */
export class RunHistory {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: Logger,
  ) {}

  async recordStart(name: string, jobId: string | undefined): Promise<number | undefined> {
    try {
      const [row] = await this.database.db
        .insert(jobRuns)
        .values({ name, jobId: jobId ?? null, trigger: jobId ? 'worker' : 'manual', status: 'running' })
        .returning({ id: jobRuns.id });
      return row?.id;
    } catch (err) {
      this.log.warn({ err, job: name }, 'could not record the job run');
      return undefined;
    }
  }

  async recordFailure(name: string, jobId: string | undefined, startedAt: Date, error: string): Promise<void> {
    try {
      await this.database.db.insert(jobRuns).values({ name, jobId: jobId ?? null, trigger: 'worker', status: 'failed', startedAt, finishedAt: sql`now()`, error });
    } catch (err) {
      this.log.warn({ err, job: name }, 'could not record the failed job run');
    }
  }

  async recordEnd(runId: number | undefined, status: 'succeeded' | 'failed', error: string | null): Promise<void> {
    if (runId === undefined) return;
    try {
      await this.database.db.update(jobRuns).set({ status, error, finishedAt: sql`now()` }).where(eq(jobRuns.id, runId));
    } catch (err) {
      this.log.warn({ err, runId }, 'could not record the end of the job run');
    }
  }

  /** Deletes the run history older than `before`. */
  async prune(before: Date): Promise<number> {
    const rows = await this.database.db.delete(jobRuns).where(lt(jobRuns.startedAt, before)).returning({ id: jobRuns.id });
    return rows.length;
  }

  /** The latest run of each job name. */
  async lastRuns(): Promise<Map<string, JobRun>> {
    const rows = await this.database.db
      .selectDistinctOn([jobRuns.name], jobRunColumns)
      .from(jobRuns)
      .orderBy(jobRuns.name, desc(jobRuns.startedAt), desc(jobRuns.id));
    return new Map(rows.map((r) => [r.name, r as JobRun]));
  }

  /** The latest run of one job. */
  async lastRun(name: string): Promise<JobRun | undefined> {
    const [row] = await this.database.db
      .select(jobRunColumns)
      .from(jobRuns)
      .where(eq(jobRuns.name, name))
      .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
      .limit(1);
    return row as JobRun | undefined;
  }
}

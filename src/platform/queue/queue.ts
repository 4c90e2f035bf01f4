import { desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import cronParser from 'cron-parser';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { rawToSql, type DatabaseHandle, type Executor } from '../db/database.js';
import { jobRuns } from './queue.tables.js';

/**
 * A job is a named task with a typed payload. Several tasks may share one pg-boss queue
 * (e.g. `billing-high`); the envelope carries the task name so the queue's worker can dispatch.
 */
export interface JobDefinition<P extends object = object> {
  name: string;
  /** pg-boss queue; defaults to the job name. */
  queue?: string;
  /**
   * cron expression (UTC) for recurring jobs. pg-boss keeps one schedule per queue, so a scheduled
   * job's schedule fires into a queue of its own, named after the job (see scheduleQueueOf), even
   * when the job shares `queue` with others for the jobs sent to it.
   */
  schedule?: string;
  description?: string;
  retryLimit?: number;
  /**
   * The pg-boss policy of its queue (all jobs of a queue must agree; default 'standard'). Only
   * 'short' (one waiting job per singletonKey), 'singleton' (one active job per key) and 'stately'
   * (one job per key and state) make a singletonKey mean something: pg-boss enforces them with
   * unique indexes, and `send` returns null for a duplicate.
   */
  policy?: QueuePolicy;
  /** Workers of its queue in each worker process (the largest value among a queue's jobs; default 1). */
  concurrency?: number;
  /**
   * Which worker runs go to job_runs: 'all' (default), or 'failures' for high-volume tasks
   * (one per payment or mail), whose successes would only add two writes each. Runs by hand
   * are always recorded.
   */
  record?: 'all' | 'failures';
  handler(payload: P, ctx: JobContext): Promise<void>;
  /**
   * High-volume tasks: the worker fetches up to `size` jobs of the queue at once and hands this
   * task's jobs to `handler` in one call (`handler` above still runs one job: runNow, a batch of
   * one). It answers, per payload in order, undefined (done) or the error that fails that job alone
   * (pg-boss retries it); the other jobs of the batch complete. A throw fails the whole batch.
   */
  batch?: { size: number; handler(payloads: P[], ctx: JobContext): Promise<(unknown | undefined)[]> };
}

export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately';

export interface JobContext {
  jobId: string | undefined;
  log: Logger;
}

interface Envelope {
  task: string;
  payload: object;
  /** 'schedule' on the jobs a schedule created (how the last scheduled run is found) */
  source?: 'schedule';
}

/** A row of pgboss.schedule (pg-boss's type leaves out the time zone column). */
type ScheduleRow = PgBoss.Schedule & { timezone?: string | null };

/** A declared schedule as pg-boss holds it, or why it is not there as declared. */
export interface ScheduleState {
  job: string;
  /** the declared cron expression (UTC) */
  declared: string;
  /** what pg-boss holds under the job's schedule, or null when it holds nothing */
  registered: { cron: string; timezone: string | null } | null;
  /** pg-boss holds exactly the declared schedule (cron, UTC, task, retries) */
  ok: boolean;
}

/** The latest job a schedule created, as pg-boss records it. */
export interface ScheduledRun {
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function defineJob<P extends object>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

export interface JobRun {
  name: string;
  trigger: 'worker' | 'manual';
  startedAt: Date;
  finishedAt: Date | null;
  status: 'running' | 'succeeded' | 'failed';
  error: string | null;
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  tx?: Executor;
  /**
   * Deduplicate by the queue's policy (JobDefinition.policy): on a 'short' queue a second job with
   * the same key is not created while one waits (send returns null). Refused on a 'standard'
   * queue, where pg-boss would ignore it.
   */
  singletonKey?: string;
  startAfter?: Date;
}

/** Options of sendMany: the jobs of one task queued by one statement. */
export interface SendManyOptions<P> extends Pick<SendOptions, 'tx'> {
  /** Per job, as SendOptions.singletonKey (a duplicate is skipped, not an error). */
  singletonKey?: (payload: P) => string;
}

/** NOTIFY channel that wakes the workers of a queue (payload: the queue name) when a job is sent. */
const WAKEUP_CHANNEL = 'job_queue_wakeup';
/** How long pg-boss keeps finished jobs (its retentionDays and deleteAfterDays). */
const RETENTION_DAYS = 7;

const jobRunColumns = {
  name: jobRuns.name,
  trigger: jobRuns.trigger,
  startedAt: jobRuns.startedAt,
  finishedAt: jobRuns.finishedAt,
  status: jobRuns.status,
  error: jobRuns.error,
};

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly jobs = new Map<string, JobDefinition<any>>();
  private started = false;
  private working = false;
  private readonly workerIds = new Map<string, string[]>();
  private unlisten: (() => Promise<void>) | undefined;
  /** pg-boss statements and job handlers still running; stop() waits for them so none outlives the pool. */
  private inFlight = 0;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: Logger,
    private readonly options: {
      pollingIntervalSeconds?: number;
      /**
       * How often pg-boss looks for a due schedule and moves it into its queue (default 30 and 5
       * seconds: a schedule runs within about 35 s of its minute). Tests make it 1.
       */
      cronIntervalSeconds?: number;
      /**
       * Whether a worker start writes the schedules (default true). Test apps leave them out, so
       * nothing runs at a wall-clock minute in the middle of a test; the tests of the schedules
       * turn them on.
       */
      schedules?: boolean;
    } = {},
  ) {
    const tracked: PgBoss.Db = {
      executeSql: async (text, values) => {
        this.inFlight++;
        try {
          return (await database.raw.executeSql(text, values)) as { rows: any[] };
        } finally {
          this.inFlight--;
        }
      },
    };
    this.boss = new PgBoss({
      db: tracked,
      schema: 'pgboss',
      // The embedded database is one connection: keep background chatter low there.
      supervise: true,
      monitorStateIntervalSeconds: 60,
      maintenanceIntervalSeconds: 120,
      retentionDays: RETENTION_DAYS,
      deleteAfterDays: RETENTION_DAYS,
      ...(options.cronIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronIntervalSeconds, cronWorkerIntervalSeconds: options.cronIntervalSeconds } : {}),
    });
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
  }

  register(...defs: JobDefinition<any>[]): void {
    for (const def of defs) {
      if (this.jobs.has(def.name)) throw new Error(`job ${def.name} registered twice`);
      if (def.schedule) cronParser.parseExpression(def.schedule, { tz: 'UTC' }); // throws on a bad expression
      const queue = this.queueOf(def);
      const other = [...this.jobs.values()].find((d) => this.queueOf(d) === queue && this.policyOf(d) !== this.policyOf(def));
      if (other) throw new Error(`jobs ${other.name} and ${def.name} share queue ${queue} with different policies`);
      // A schedule's queue carries that schedule only: no other job may be sent to it.
      const taken = [...this.jobs.values()].find(
        (d) => (d.schedule && this.scheduleQueueOf(d) === queue) || (def.schedule && this.queueOf(d) === this.scheduleQueueOf(def)),
      );
      if (taken) throw new Error(`job ${def.name}: queue ${queue === taken.name ? queue : def.name} is the schedule queue of ${taken.name === def.name ? 'another job' : taken.name}`);
      this.jobs.set(def.name, def);
    }
  }

  definitions(): JobDefinition<any>[] {
    return [...this.jobs.values()];
  }

  definition(name: string): JobDefinition<any> | undefined {
    return this.jobs.get(name);
  }

  private queueOf(def: JobDefinition<any>): string {
    return def.queue ?? def.name;
  }

  private policyOf(def: JobDefinition<any>): QueuePolicy {
    return def.policy ?? 'standard';
  }

  /**
   * The queue a scheduled job's schedule fires into: the job's name. pg-boss keeps one schedule per
   * queue (its name is the schedule's key), so two schedules on one shared queue would overwrite
   * each other, and one of the two jobs would never run.
   */
  private scheduleQueueOf(def: JobDefinition<any>): string {
    return def.name;
  }

  /** Every queue a job arrives on: the one it is sent to, and its schedule's. */
  private queuesOf(def: JobDefinition<any>): string[] {
    return def.schedule ? [...new Set([this.queueOf(def), this.scheduleQueueOf(def)])] : [this.queueOf(def)];
  }

  /** The schedule row pg-boss must hold for a scheduled job. */
  private declaredSchedule(def: JobDefinition<any>) {
    return {
      name: this.scheduleQueueOf(def),
      cron: def.schedule!,
      data: { task: def.name, payload: {}, source: 'schedule' } satisfies Envelope,
      options: { tz: 'UTC', retryLimit: def.retryLimit ?? 5, retryBackoff: true },
    };
  }

  private matchesDeclared(def: JobDefinition<any>, row: ScheduleRow | undefined): boolean {
    if (!row) return false;
    const want = this.declaredSchedule(def);
    const data = row.data as Partial<Envelope> | undefined;
    const options = (row.options ?? {}) as Record<string, unknown>;
    return (
      row.cron === want.cron &&
      (row.timezone ?? 'UTC') === 'UTC' &&
      data?.task === def.name &&
      data.source === 'schedule' &&
      options.tz === 'UTC' &&
      options.retryLimit === want.options.retryLimit &&
      options.retryBackoff === true
    );
  }

  /** Creates pg-boss's schema and the queues; needed before anything is sent. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const existing = new Map((await this.boss.getQueues()).map((q) => [q.name, q.policy ?? 'standard']));
    for (const def of this.jobs.values()) {
      const policy = this.policyOf(def);
      for (const queue of this.queuesOf(def)) {
        if (!existing.has(queue)) await this.boss.createQueue(queue, { name: queue, policy, retryLimit: 5, retryBackoff: true });
        else if (existing.get(queue) !== policy) await this.boss.updateQueue(queue, { name: queue, policy });
        existing.set(queue, policy);
      }
    }
    this.started = true;
  }

  async send<P extends object>(def: JobDefinition<P>, payload: P, opts: SendOptions = {}): Promise<string | null> {
    if (!this.jobs.has(def.name)) throw new Error(`job ${def.name} is not registered`);
    if (opts.singletonKey && this.policyOf(def) === 'standard') {
      throw new Error(`job ${def.name}: a singletonKey deduplicates nothing on a standard queue; give the job a policy`);
    }
    const envelope: Envelope = { task: def.name, payload };
    const sendOptions: PgBoss.SendOptions = {
      retryLimit: def.retryLimit ?? 5,
      retryBackoff: true,
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
    };
    if (opts.tx) {
      const tx = opts.tx;
      sendOptions.db = {
        executeSql: async (text, values) => (await tx.execute(rawToSql(text, values))) as unknown as { rows: any[] },
      };
    }
    const id = await this.boss.send(this.queueOf(def), envelope, sendOptions);
    if (id === null) return null; // a duplicate the queue's policy refused: nothing to wake for
    // Wake the queue's workers (in any process) when the job commits, instead of at their next poll.
    if (!opts.startAfter) await (opts.tx ?? this.database.db).execute(sql`select pg_notify(${WAKEUP_CHANNEL}, ${this.queueOf(def)})`);
    return id;
  }

  /** Queues several jobs of one task with one INSERT and one wake-up (no startAfter). */
  async sendMany<P extends object>(def: JobDefinition<P>, payloads: P[], opts: SendManyOptions<P> = {}): Promise<void> {
    if (!this.jobs.has(def.name)) throw new Error(`job ${def.name} is not registered`);
    if (opts.singletonKey && this.policyOf(def) === 'standard') throw new Error(`job ${def.name}: a singletonKey deduplicates nothing on a standard queue; give the job a policy`);
    if (payloads.length === 0) return;
    const queue = this.queueOf(def);
    const key = opts.singletonKey;
    const jobs: PgBoss.JobInsert[] = payloads.map((payload) => ({
      name: queue,
      data: { task: def.name, payload } satisfies Envelope,
      retryLimit: def.retryLimit ?? 5,
      retryBackoff: true,
      ...(key ? { singletonKey: key(payload) } : {}),
    }));
    const db: PgBoss.Db | undefined = opts.tx
      ? { executeSql: async (text, values) => (await opts.tx!.execute(rawToSql(text, values))) as unknown as { rows: any[] } }
      : undefined;
    await this.boss.insert(jobs, db ? { db } : {});
    await (opts.tx ?? this.database.db).execute(sql`select pg_notify(${WAKEUP_CHANNEL}, ${queue})`);
  }

  /**
   * An INSERT of jobs of one task, one per row of `payloads` (a SELECT of one jsonb column), to use
   * as a data-modifying CTE in the statement that makes the business change: the jobs then exist
   * exactly when that statement's rows do, without a transaction or a round trip of their own (the
   * hot path of the payment callback). The same row pg-boss's own send writes for a job of this
   * definition on a standard queue (pg-boss 10's insertJob, without singleton or delay), and the
   * workers' wake-up, delivered at commit. Returns the job ids.
   */
  enqueueSql<P extends object>(def: JobDefinition<P>, payloads: SQL): SQL {
    if (!this.jobs.has(def.name)) throw new Error(`job ${def.name} is not registered`);
    if (this.policyOf(def) !== 'standard') throw new Error(`job ${def.name}: enqueueSql writes standard-queue jobs only`);
    const queue = this.queueOf(def);
    return sql`insert into pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, keep_until, dead_letter, policy)
      select q.name, jsonb_build_object('task', ${def.name}::text, 'payload', p.payload), ${def.retryLimit ?? 5}::int,
             greatest(coalesce(q.retry_delay, 0), 1), true,
             coalesce(q.expire_seconds * interval '1s', interval '15 minutes'),
             now() + cast(coalesce((q.retention_minutes * 60)::text, ${`${RETENTION_DAYS} days`}) as interval),
             q.dead_letter, q.policy
      from (${payloads}) as p(payload) join pgboss.queue q on q.name = ${queue}
      returning id, pg_notify(${WAKEUP_CHANNEL}, name)`;
  }

  /** Starts the workers of every queue and the recurring schedules. */
  async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    const pollingIntervalSeconds = this.options.pollingIntervalSeconds ?? 2;
    this.unlisten = await this.database.listen(WAKEUP_CHANNEL, (queue) => {
      for (const id of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(id);
    });
    for (const queue of new Set([...this.jobs.values()].flatMap((d) => this.queuesOf(d)))) {
      const defs = [...this.jobs.values()].filter((d) => this.queuesOf(d).includes(queue));
      // The embedded database is one connection: parallel workers there would only queue up.
      const workers = this.database.kind === 'pglite' ? 1 : Math.max(1, ...defs.map((d) => d.concurrency ?? 1));
      const ids: string[] = [];
      // A queue whose tasks take batches fetches up to the largest batch size at once.
      const batchSize = Math.max(1, ...defs.map((d) => d.batch?.size ?? 1));
      for (let i = 0; i < workers; i++) {
        let workerId = '';
        workerId = await this.boss.work<Envelope>(queue, { pollingIntervalSeconds, batchSize }, async (jobs) => {
          if (jobs.length === 0) return;
          try {
            await this.executeFetched(queue, jobs);
          } finally {
            // Jobs were there: fetch the next ones at once rather than after the polling interval.
            this.boss.notifyWorker(workerId);
          }
        });
        ids.push(workerId);
      }
      this.workerIds.set(queue, ids);
    }
    if (this.options.schedules !== false) await this.syncSchedules();
  }

  /**
   * Makes pg-boss hold exactly the declared schedules: one read, an upsert only for those that are
   * missing or differ, and the removal of schedules no job declares (a renamed job's, or the one
   * a shared queue held before every schedule had its own). Then reads them back and says loudly
   * which declared schedule is still not there as declared: that job would never run by itself.
   */
  private async syncSchedules(): Promise<void> {
    const held = await this.heldSchedules();
    const scheduled = [...this.jobs.values()].filter((d) => d.schedule);
    for (const def of scheduled) {
      if (this.matchesDeclared(def, held.get(this.scheduleQueueOf(def)))) continue;
      const want = this.declaredSchedule(def);
      await this.boss.schedule(want.name, want.cron, want.data, want.options);
    }
    const declaredNames = new Set(scheduled.map((d) => this.scheduleQueueOf(d)));
    for (const name of held.keys()) {
      if (declaredNames.has(name)) continue;
      this.log.warn({ schedule: name, cron: held.get(name)!.cron }, 'removing a schedule no job declares');
      await this.boss.unschedule(name);
    }
    const wrong = (await this.schedules()).filter((s) => !s.ok);
    for (const s of wrong) {
      this.log.error({ job: s.job, declared: s.declared, registered: s.registered }, `schedule of ${s.job} is not in pg-boss as declared: the job will not run by itself`);
    }
  }

  private async heldSchedules(): Promise<Map<string, ScheduleRow>> {
    return new Map(((await this.boss.getSchedules()) as ScheduleRow[]).map((s) => [s.name, s]));
  }

  /** Every declared schedule against what pg-boss holds now. */
  async schedules(): Promise<ScheduleState[]> {
    const held = await this.heldSchedules();
    return [...this.jobs.values()]
      .filter((d) => d.schedule)
      .map((def) => {
        const row = held.get(this.scheduleQueueOf(def));
        return {
          job: def.name,
          declared: def.schedule!,
          registered: row ? { cron: row.cron, timezone: row.timezone ?? null } : null,
          ok: this.matchesDeclared(def, row),
        };
      });
  }

  /** When a cron expression (as pg-boss holds it, in its time zone) fires next after `after`. */
  static nextRun(cron: string, timezone: string | null, after: Date): Date {
    return cronParser.parseExpression(cron, { tz: timezone ?? 'UTC', currentDate: after }).next().toDate();
  }

  /**
   * The latest job each schedule created, from pg-boss's job table, and from its archive for jobs
   * it has already moved there (12 hours after they finish; kept 7 days).
   */
  async lastScheduledRuns(): Promise<Map<string, ScheduledRun>> {
    const scheduled = [...this.jobs.values()].filter((d) => d.schedule);
    if (scheduled.length === 0) return new Map();
    const queues = scheduled.map((d) => this.scheduleQueueOf(d));
    const columns = `data->>'task' AS task, state, created_on, started_on, completed_on`;
    const { rows } = await this.database.raw.executeSql(
      `SELECT DISTINCT ON (task) task, state, created_on, started_on, completed_on FROM (
         SELECT ${columns} FROM pgboss.job WHERE name = ANY($1::text[]) AND data->>'source' = 'schedule'
         UNION ALL
         SELECT ${columns} FROM pgboss.archive WHERE name = ANY($1::text[]) AND data->>'source' = 'schedule'
       ) runs ORDER BY task, created_on DESC`,
      [queues],
    );
    const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
    return new Map(
      (rows as { task: string; state: ScheduledRun['state']; created_on: unknown; started_on: unknown; completed_on: unknown }[]).map((r) => [
        r.task,
        { state: r.state, createdAt: date(r.created_on)!, startedAt: date(r.started_on), finishedAt: date(r.completed_on) },
      ]),
    );
  }

  /**
   * Runs the jobs one fetch returned: a task with a batch handler gets its jobs in one call, the
   * others run one by one. A job that fails alone is failed here (pg-boss retries it); pg-boss then
   * completes the rest of the fetch, and fails all of it only if this throws.
   */
  private async executeFetched(queue: string, jobs: PgBoss.Job<Envelope>[]): Promise<void> {
    const byTask = new Map<string, PgBoss.Job<Envelope>[]>();
    for (const job of jobs) byTask.set(job.data.task, [...(byTask.get(job.data.task) ?? []), job]);
    const failed: { id: string; err: unknown }[] = [];
    for (const [task, taskJobs] of byTask) {
      const def = this.jobs.get(task);
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
  private async executeBatch(def: JobDefinition<any>, jobs: PgBoss.Job<Envelope>[]): Promise<unknown[]> {
    const log = this.log.child({ job: def.name, jobs: jobs.length });
    const started = Date.now();
    this.inFlight++;
    try {
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
          if (!quiet) await this.recordEnd(await this.recordStart(def.name, jobs[i]!.id), 'succeeded', null);
          continue;
        }
        log.error({ err, jobId: jobs[i]!.id }, 'job failed');
        await this.recordFailure(def.name, jobs[i]!.id, new Date(started), String((err as Error)?.message ?? err).slice(0, 1000));
      }
      return errors;
    } finally {
      this.inFlight--;
    }
  }

  /** Runs a job's handler in this process now, as the worker would; throws what the handler throws. */
  async runNow(name: string, payload: object = {}): Promise<void> {
    const def = this.jobs.get(name);
    if (!def) throw new Error(`unknown job ${name}`);
    await this.execute(def, payload, undefined);
  }

  private async execute(def: JobDefinition<any>, payload: object, jobId: string | undefined): Promise<void> {
    const log = this.log.child({ job: def.name, jobId });
    const started = Date.now();
    const quiet = def.record === 'failures' && jobId !== undefined;
    this.inFlight++;
    try {
      const runId = quiet ? undefined : await this.recordStart(def.name, jobId);
      try {
        await def.handler(payload, { jobId, log });
        log.debug({ ms: Date.now() - started }, 'job done');
        await this.recordEnd(runId, 'succeeded', null);
      } catch (err) {
        log.error({ err, ms: Date.now() - started }, 'job failed');
        const error = String((err as Error)?.message ?? err).slice(0, 1000);
        if (quiet) await this.recordFailure(def.name, jobId, new Date(started), error);
        else await this.recordEnd(runId, 'failed', error);
        throw err;
      }
    } finally {
      this.inFlight--;
    }
  }

  /** Recording a run never makes the job itself fail. */
  private async recordStart(name: string, jobId: string | undefined): Promise<number | undefined> {
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

  private async recordFailure(name: string, jobId: string | undefined, startedAt: Date, error: string): Promise<void> {
    try {
      await this.database.db.insert(jobRuns).values({ name, jobId: jobId ?? null, trigger: 'worker', status: 'failed', startedAt, finishedAt: sql`now()`, error });
    } catch (err) {
      this.log.warn({ err, job: name }, 'could not record the failed job run');
    }
  }

  private async recordEnd(runId: number | undefined, status: 'succeeded' | 'failed', error: string | null): Promise<void> {
    if (runId === undefined) return;
    try {
      await this.database.db.update(jobRuns).set({ status, error, finishedAt: sql`now()` }).where(eq(jobRuns.id, runId));
    } catch (err) {
      this.log.warn({ err, runId }, 'could not record the end of the job run');
    }
  }

  /** Deletes the run history older than `before`. */
  async pruneRuns(before: Date): Promise<number> {
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

  /** Stops taking new jobs and waits for running ones to finish. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.working = false;
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    this.workerIds.clear();
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
    // pg-boss waits for running jobs, not for a worker's fetch or a maintenance query in flight.
    const deadline = Date.now() + 15_000;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  /** Jobs waiting in a queue, for tests and operators. */
  async pending(queue: string): Promise<number> {
    const rows = await this.database.raw.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created','retry')`,
      [queue],
    );
    return rows.rows[0]?.n ?? 0;
  }
}

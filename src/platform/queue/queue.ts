import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { rawToSql, type DatabaseHandle, type Executor } from '../db/database.js';
import { JobRegistry, policyOf, queueOf, queuesOf, type Envelope, type JobDefinition, type SendManyOptions, type SendOptions } from './definitions.js';
import { JobExecution } from './execution.js';
import { RunHistory, type JobRun } from './run-history.js';
import { nextRun, Schedules, type ScheduledRun, type ScheduleState } from './schedules.js';
import { StatementTracker } from './statements.js';

export { defineJob, type JobContext, type JobDefinition, type QueuePolicy, type SendManyOptions, type SendOptions } from './definitions.js';
export type { JobRun } from './run-history.js';
export type { ScheduledRun, ScheduleState } from './schedules.js';

/** NOTIFY channel that wakes the workers of a queue (payload: the queue name) when a job is sent. */
const WAKEUP_CHANNEL = 'job_queue_wakeup';
/** How long pg-boss keeps finished jobs (its retentionDays and deleteAfterDays). */
const RETENTION_DAYS = 7;
/** How long a worker start waits for the previous worker's first fetch on the embedded database. */
const STAGGER_BOUND_MS = 2000;
/**
 * How often each queue's worker fetches on its own. A job sent now wakes its queue's workers
 * through NOTIFY, and the process's one due-job scan (every pollingIntervalSeconds) wakes the
 * queues whose delayed or retried jobs came due, so this is only a safety net.
 */
const WORKER_IDLE_FETCH_SECONDS = 300;

/**
 * The job queue on pg-boss: sending (in the caller's transaction), the workers and the schedules
 * here; the definitions (definitions.ts), the running of jobs (execution.ts), the schedules
 * (schedules.ts), the run history (run-history.ts) and the count of what runs on the database
 * (statements.ts) in files of their own.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly registry = new JobRegistry();
  private readonly tracker: StatementTracker;
  private readonly history: RunHistory;
  private readonly execution: JobExecution;
  private readonly scheduling: Schedules;
  private started = false;
  private working = false;
  private readonly workerIds = new Map<string, string[]>();
  private unlisten: (() => Promise<void>) | undefined;
  /** The worker start under way or done (work()). */
  private starting: Promise<void> | undefined;
  /** pg-boss's cron (its timekeeper), in worker processes only. */
  private cron: PgBoss | undefined;
  /** The due-job scan's timer, and the scan in flight (never two at once). */
  private dueScan: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: Logger,
    private readonly options: {
      /** How often the due-job scan looks for delayed and retried jobs that came due (default 2). */
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
    this.tracker = new StatementTracker(database.raw);
    this.boss = new PgBoss({
      db: this.tracker.db,
      schema: 'pgboss',
      // the cron runs in a second instance started by work()
      schedule: false,
      // The embedded database is one connection: keep background chatter low there.
      supervise: true,
      monitorStateIntervalSeconds: 60,
      maintenanceIntervalSeconds: 120,
      retentionDays: RETENTION_DAYS,
      deleteAfterDays: RETENTION_DAYS,
    });
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    this.history = new RunHistory(database, log);
    this.execution = new JobExecution(this.boss, this.registry, this.history, this.tracker, log);
    this.scheduling = new Schedules(this.boss, this.registry, database, log);
  }

  register(...defs: JobDefinition<any>[]): void {
    this.registry.register(...defs);
  }

  definitions(): JobDefinition<any>[] {
    return this.registry.all();
  }

  definition(name: string): JobDefinition<any> | undefined {
    return this.registry.get(name);
  }

  /** Creates pg-boss's schema and the queues; needed before anything is sent. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const existing = new Map((await this.boss.getQueues()).map((q) => [q.name, q.policy ?? 'standard']));
    for (const def of this.registry.all()) {
      const policy = policyOf(def);
      for (const queue of queuesOf(def)) {
        if (!existing.has(queue)) await this.boss.createQueue(queue, { name: queue, policy, retryLimit: 5, retryBackoff: true });
        else if (existing.get(queue) !== policy) await this.boss.updateQueue(queue, { name: queue, policy });
        existing.set(queue, policy);
      }
    }
    this.started = true;
  }

  async send<P extends object>(def: JobDefinition<P>, payload: P, opts: SendOptions = {}): Promise<string | null> {
    this.registry.assertRegistered(def);
    if (opts.singletonKey && policyOf(def) === 'standard') {
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
    const id = await this.boss.send(queueOf(def), envelope, sendOptions);
    if (id === null) return null; // a duplicate the queue's policy refused: nothing to wake for
    // Wake the queue's workers (in any process) when the job commits, instead of at their next poll.
    if (!opts.startAfter) await (opts.tx ?? this.database.db).execute(sql`select pg_notify(${WAKEUP_CHANNEL}, ${queueOf(def)})`);
    return id;
  }

  /** Queues several jobs of one task with one INSERT and one wake-up (no startAfter). */
  async sendMany<P extends object>(def: JobDefinition<P>, payloads: P[], opts: SendManyOptions<P> = {}): Promise<void> {
    this.registry.assertRegistered(def);
    if (opts.singletonKey && policyOf(def) === 'standard') throw new Error(`job ${def.name}: a singletonKey deduplicates nothing on a standard queue; give the job a policy`);
    if (payloads.length === 0) return;
    const queue = queueOf(def);
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
   * definition on a standard queue (pg-boss 10's insertJob, without singleton), and the workers'
   * wake-up, delivered at commit. With `delaySeconds` the job is due that much later and nobody is
   * woken: a safety net under work the caller means to do itself (see completeWaiting, expedite).
   * Returns the job ids.
   */
  enqueueSql<P extends object>(def: JobDefinition<P>, payloads: SQL, opts: { delaySeconds?: number } = {}): SQL {
    this.registry.assertRegistered(def);
    if (policyOf(def) !== 'standard') throw new Error(`job ${def.name}: enqueueSql writes standard-queue jobs only`);
    const queue = queueOf(def);
    const delay = Math.max(0, Math.trunc(opts.delaySeconds ?? 0));
    return sql`insert into pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, keep_until, dead_letter, policy, start_after)
      select q.name, jsonb_build_object('task', ${def.name}::text, 'payload', p.payload), ${def.retryLimit ?? 5}::int,
             greatest(coalesce(q.retry_delay, 0), 1), true,
             coalesce(q.expire_seconds * interval '1s', interval '15 minutes'),
             now() + cast(coalesce((q.retention_minutes * 60)::text, ${`${RETENTION_DAYS} days`}) as interval),
             q.dead_letter, q.policy, now() + ${delay}::int * interval '1s'
      from (${payloads}) as p(payload) join pgboss.queue q on q.name = ${queue}
      returning id${delay > 0 ? sql`` : sql`, pg_notify(${WAKEUP_CHANNEL}, name)`}`;
  }

  /**
   * Completes, inside the caller's transaction, jobs of `def` that no worker has taken yet: the
   * caller did their work in that transaction, so the job ends exactly when the work commits. A job
   * a worker took meanwhile is left to it (an idempotent job finds its work done).
   */
  async completeWaiting(tx: Executor, def: JobDefinition<any>, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.execute(sql`update pgboss.job set state = 'completed', completed_on = now()
      where name = ${queueOf(def)} and id in (select id::uuid from json_array_elements_text(${JSON.stringify(ids)}::json) as j(id)) and state = 'created'`);
  }

  /** Makes waiting jobs of `def` due now (written with a delay by enqueueSql) and wakes the workers. */
  async expedite(def: JobDefinition<any>, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db.execute(sql`update pgboss.job set start_after = now()
      where name = ${queueOf(def)} and id in (select id::uuid from json_array_elements_text(${JSON.stringify(ids)}::json) as j(id)) and state = 'created'`);
    await this.database.db.execute(sql`select pg_notify(${WAKEUP_CHANNEL}, ${queueOf(def)})`);
  }

  /** Starts the workers of every queue and the recurring schedules. */
  work(): Promise<void> {
    if (this.working) return this.starting ?? Promise.resolve();
    this.working = true;
    this.starting = this.startWorkers();
    return this.starting;
  }

  private async startWorkers(): Promise<void> {
    const pollingIntervalSeconds = WORKER_IDLE_FETCH_SECONDS;
    this.unlisten = await this.database.listen(WAKEUP_CHANNEL, (queue) => this.wake(queue));
    for (const queue of this.registry.queues()) {
      const defs = this.registry.all().filter((d) => queuesOf(d).includes(queue));
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
            await this.execution.executeFetched(queue, jobs);
          } finally {
            // Jobs were there: fetch the next ones at once rather than after the polling interval.
            this.boss.notifyWorker(workerId);
          }
        });
        ids.push(workerId);
        // A worker fetches as soon as it starts. The embedded database has one connection and
        // answers without giving the event loop a turn, so the next worker starts once this
        // fetch is answered and the loop has taken its turn: a request that arrives meanwhile
        // (the first /readyz) waits for one fetch, not for one per queue.
        if (this.database.kind === 'pglite') {
          await this.tracker.settled(STAGGER_BOUND_MS);
          await new Promise((resolve) => setImmediate(resolve));
          if (!this.working) return; // stopped meanwhile
        }
      }
      this.workerIds.set(queue, ids);
    }
    if (!this.working) return;
    const every = (this.options.pollingIntervalSeconds ?? 2) * 1000;
    this.dueScan = setInterval(() => {
      this.scanning ??= this.scanDue().finally(() => (this.scanning = undefined));
    }, every);
    this.dueScan.unref();
    if (this.options.schedules === false) return;
    await this.scheduling.sync();
    // pg-boss's cron sends each schedule's job when it is due. It runs where the workers run, in a
    // second instance on the same database started last: its start creates and fetches from a
    // queue of its own, which used to run in every process before anything else, /readyz included.
    if (!this.working) return;
    const cronEvery = this.options.cronIntervalSeconds;
    this.cron = new PgBoss({
      db: this.tracker.db,
      schema: 'pgboss',
      migrate: false,
      supervise: false,
      schedule: true,
      ...(cronEvery ? { cronMonitorIntervalSeconds: cronEvery, cronWorkerIntervalSeconds: cronEvery } : {}),
    });
    this.cron.on('error', (err) => this.log.error({ err }, 'job queue cron error'));
    await this.cron.start();
  }

  private wake(queue: string): void {
    for (const id of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  /**
   * Wakes the workers of the queues that hold a job due now that no NOTIFY announced: sent with a
   * delay, or retried after a failure. One statement for every queue of the process, instead of
   * each queue's worker fetching on a timer of its own (about sixty queues).
   */
  private async scanDue(): Promise<void> {
    try {
      const { rows } = await this.tracker.db.executeSql(
        `SELECT DISTINCT name FROM pgboss.job WHERE state < 'active' AND start_after <= now() AND name = ANY($1::text[])`,
        [[...this.workerIds.keys()]],
      );
      for (const row of rows as { name: string }[]) this.wake(row.name);
    } catch (err) {
      this.log.error({ err }, 'job queue due scan failed');
    }
  }

  /** Every declared schedule against what pg-boss holds now. */
  schedules(): Promise<ScheduleState[]> {
    return this.scheduling.states();
  }

  /** When a cron expression (as pg-boss holds it, in its time zone) fires next after `after`. */
  static nextRun(cron: string, timezone: string | null, after: Date): Date {
    return nextRun(cron, timezone, after);
  }

  /** The latest job each schedule created (pg-boss's job table and archive). */
  lastScheduledRuns(): Promise<Map<string, ScheduledRun>> {
    return this.scheduling.lastRuns();
  }

  /** Runs a job's handler in this process now, as the worker would; throws what the handler throws. */
  runNow(name: string, payload: object = {}): Promise<void> {
    return this.execution.runNow(name, payload);
  }

  /** Deletes the run history older than `before`. */
  pruneRuns(before: Date): Promise<number> {
    return this.history.prune(before);
  }

  /** The latest run of each job name. */
  lastRuns(): Promise<Map<string, JobRun>> {
    return this.history.lastRuns();
  }

  /** The latest run of one job. */
  lastRun(name: string): Promise<JobRun | undefined> {
    return this.history.lastRun(name);
  }

  /** Stops taking new jobs and waits for running ones to finish. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.working = false;
    // a worker start still under way stops at its next step; let it, then stop what it started
    await this.starting?.catch(() => undefined);
    this.starting = undefined;
    clearInterval(this.dueScan);
    this.dueScan = undefined;
    await this.scanning;
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    this.workerIds.clear();
    await this.cron?.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
    this.cron = undefined;
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
    // pg-boss waits for running jobs, not for a worker's fetch or a maintenance query in flight.
    await this.tracker.drained(15_000);
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

import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database, Executor } from '../db/database.js';
import { queryRows } from '../db/database.js';
import { afterFailure, definePolicy, defineSweepJob, doubling, leaseEnd, leaseFree } from '../durable/index.js';
import { defineJob, type JobQueue } from '../queue/queue.js';
import { resourceLifecycle as rl } from './lifecycle.tables.js';

/**
 * One mechanism for every resource that lives at a backend (docs/architecture.md, "Resources at
 * the datacenter"): desired state against applied state, one idempotent apply job per resource,
 * a conditional finish, one sweep, one error-and-retry shape. A module plugs in a
 * `ResourceAdapter` per kind of resource; the adapter knows its rows and its backend, this knows
 * when and how often to call it.
 */

/** A backend's refusal: tried again by itself with back-off ('retry'), or only by a retry or a new change ('final'). */
export type FailureKind = 'retry' | 'final';

export interface Failure {
  /** what the adapter threw */
  error: unknown;
  message: string;
  final: boolean;
  /** failed applies in a row, this one included */
  attempts: number;
}

/** What an apply that reached the backend records, in the transaction of the conditional finish. */
export interface Applied {
  record?(tx: Executor): Promise<void>;
  /** the resource's rows are gone for good (e.g. a detached address): its lifecycle row goes too */
  gone?: boolean;
}

export interface ResourceAdapter {
  /** e.g. `vm`, `network`: the first half of the key */
  readonly kind: string;
  /**
   * Reads the resource's desired state and makes the backend match it, outside any transaction.
   * Idempotent: it may run again for the same state (a retry, a duplicate job, a lost finish). A
   * resource that no longer exists is nothing to do.
   */
  apply(id: number): Promise<Applied | void>;
  /** Which thrown errors are the backend's refusals; any other error is thrown on (the queue retries the job). */
  classify(err: unknown): FailureKind | undefined;
  /** In the transaction that records a failure of the desired generation (e.g. status Error). */
  failed?(tx: Executor, id: number, failure: Failure): Promise<void>;
}

export type SyncStateName = 'synced' | 'pending' | 'failed';

/** The API's view of a resource's backend work (the same on every kind). */
export interface SyncState {
  state: SyncStateName;
  lastError: string | null;
  lastErrorAt: Date | null;
  attempts: number;
  /** when a failed change is tried again by itself; null when nothing is scheduled */
  nextRetryAt: Date | null;
}

export const SYNCED: SyncState = { state: 'synced', lastError: null, lastErrorAt: null, attempts: 0, nextRetryAt: null };

/**
 * The durable-work policy of resource applies (docs/architecture.md, "Durable work"). A job holds
 * a resource for 10 minutes at most before another may take it over (a crashed worker); a
 * backend's refusal is tried again by itself after 1, 2, 4, 8, 16, then every 30 minutes, with no
 * limit; a change whose job has not finished 5 minutes after it was made is taken for lost.
 */
export const RESOURCE_APPLY = definePolicy({
  name: 'resources',
  leaseMs: 10 * 60_000,
  backoff: doubling({ firstMs: 60_000, maxMs: 30 * 60_000 }),
  maxAttempts: Infinity,
  lostAfterMs: 5 * 60_000,
  sweepSchedule: '* * * * *',
  onGiveUp:
    "only a final refusal gives up: the adapter's failed hook records it (e.g. status Error) and the change waits for the resource's retry action or a new change",
});
/** A job that has not finished this long after a change is taken for lost: the sweep queues it again. */
export const LOST_AFTER_MS = RESOURCE_APPLY.lostAfterMs;
/** A job applies again at most this often when the desired state keeps moving under it. */
const MAX_ROUNDS = 5;
const SWEEP_BATCH = 500;

type Key = { kind: string; id: number };
const keyOf = ({ kind, id }: Key) => `${kind}:${id}`;
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ms = (n: number) => sql`${n} * interval '1 millisecond'`;

/** Rolls back a finish whose generation is no longer the desired one. */
class ConditionLost extends Error {}

export class Lifecycle {
  private readonly adapters = new Map<string, ResourceAdapter>();

  /** The one apply job: one waiting job per resource (`kind:id`), duplicates collapse. */
  readonly applyJob = defineJob<{ kind?: string; id?: number }>({
    name: 'resources.apply',
    queue: 'resources',
    policy: 'short',
    concurrency: 4,
    retryLimit: 5,
    record: 'failures',
    description: 'Makes one resource at the datacenter or object storage match its desired state (idempotent; a stale or repeated job changes nothing)',
    handler: async ({ kind, id }) => {
      if (typeof kind === 'string' && Number.isInteger(id)) await this.run(kind, id!);
    },
  });

  /** The one sweep: lost jobs and due retries of every kind. */
  readonly sweepJob = defineSweepJob(RESOURCE_APPLY, {
    name: 'resources.sweep',
    description: 'Resource sync: queues the apply job again for every resource whose change waited too long (a lost job) or whose automatic retry is due',
    run: async () => ({ queued: await this.sweep() }),
    report: ({ queued }, log) => {
      if (queued > 0) log.info({ queued }, 'resources queued again by the sweep');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  register(adapter: ResourceAdapter): void {
    if (this.adapters.has(adapter.kind)) throw new Error(`resource kind ${adapter.kind} registered twice`);
    this.adapters.set(adapter.kind, adapter);
  }

  /**
   * The desired state of the resource changed: call it in the transaction of the change. Bumps the
   * desired generation and queues the apply job with it (both exist only if the change commits).
   */
  async changed(tx: Executor, kind: string, id: number): Promise<void> {
    if (!this.adapters.has(kind)) throw new Error(`unknown resource kind ${kind}`);
    const now = this.clock.now();
    await tx.execute(sql`
      insert into resource_lifecycle (kind, resource_id, desired_generation, applied_generation, changed_at, due_at)
      values (${kind}, ${id}, 1, 0, ${at(now)}, ${at(now)} + ${ms(RESOURCE_APPLY.lostAfterMs)})
      on conflict (kind, resource_id) do update set
        desired_generation = resource_lifecycle.desired_generation + 1,
        changed_at = excluded.changed_at,
        due_at = excluded.due_at`);
    await this.queue.send(this.applyJob, { kind, id }, { tx, singletonKey: keyOf({ kind, id }) });
  }

  /** Drops the rows of resources that are gone for good (their rows were deleted), in the caller's transaction. */
  async forget(tx: Executor, kind: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.delete(rl).where(and(eq(rl.kind, kind), inArray(rl.resourceId, ids)));
  }

  /** The sync state of resources of one kind (a resource never changed is synced). */
  async states(kind: string, ids: number[], ex: Executor = this.db): Promise<Map<number, SyncState>> {
    const out = new Map<number, SyncState>();
    if (ids.length === 0) return out;
    const rows = await ex
      .select({
        id: rl.resourceId,
        desired: rl.desiredGeneration,
        applied: rl.appliedGeneration,
        failed: rl.failedGeneration,
        attempts: rl.attempts,
        lastError: rl.lastError,
        lastErrorAt: rl.lastErrorAt,
        retryAt: rl.retryAt,
      })
      .from(rl)
      .where(and(eq(rl.kind, kind), inArray(rl.resourceId, [...new Set(ids)])));
    for (const r of rows) {
      const state: SyncStateName = r.applied >= r.desired ? 'synced' : r.failed === r.desired ? 'failed' : 'pending';
      out.set(r.id, { state, lastError: r.lastError, lastErrorAt: r.lastErrorAt, attempts: r.attempts, nextRetryAt: state === 'failed' ? r.retryAt : null });
    }
    return out;
  }

  async state(kind: string, id: number, ex: Executor = this.db): Promise<SyncState> {
    return (await this.states(kind, [id], ex)).get(id) ?? SYNCED;
  }

  /** There is work to do: a change not applied, not failed, or failed with its retry due. */
  private pending(now: Date): SQL {
    return sql`(${rl.desiredGeneration} > ${rl.appliedGeneration} and (${rl.failedGeneration} is distinct from ${rl.desiredGeneration} or coalesce(${rl.retryAt} <= ${at(now)}, false)))`;
  }

  private where(k: Key, token?: string): SQL {
    return sql`${rl.kind} = ${k.kind} and ${rl.resourceId} = ${k.id}${token ? sql` and ${rl.leaseToken} = ${token}` : sql``}`;
  }

  /**
   * The apply job's body. Takes the resource's lease (one job at a time per resource), applies the
   * desired state and finishes conditionally; when the desired state moved meanwhile it applies
   * again, so the backend ends on the latest state whatever order jobs ran in.
   */
  async run(kind: string, id: number): Promise<void> {
    const adapter = this.adapters.get(kind);
    if (!adapter) throw new Error(`no adapter for resource kind ${kind}`);
    const k = { kind, id };
    const token = randomUUID();
    let generation = await this.claim(k, token);
    if (generation === undefined) return; // nothing to do, or another job holds it (and will see the change)
    let holding = true;
    try {
      for (let round = 0; round < MAX_ROUNDS && generation !== undefined; round++) {
        let applied: Applied | void = undefined;
        let failure: { err: unknown; kind: FailureKind } | undefined;
        try {
          applied = await adapter.apply(id);
        } catch (err) {
          const failureKind = adapter.classify(err);
          if (!failureKind) throw err;
          failure = { err, kind: failureKind };
        }
        if (failure) await this.recordFailure(adapter, k, token, generation, failure.err, failure.kind);
        else await this.finish(k, token, generation, applied);
        const next = await this.releaseOrRenew(k, token);
        holding = next !== 'lost' && next !== 'released';
        generation = typeof next === 'number' ? next : undefined;
      }
    } finally {
      // rounds used up or a thrown error: let go; the row stays due, so the sweep (or the queue's retry) comes back
      if (holding) await this.db.update(rl).set({ leaseToken: null, leaseUntil: null }).where(this.where(k, token));
    }
  }

  /** Takes the lease when there is work to do and no live lease; answers the desired generation. */
  private async claim(k: Key, token: string): Promise<number | undefined> {
    const now = this.clock.now();
    const [row] = await queryRows<{ desired: number }>(
      this.db,
      sql`update resource_lifecycle set lease_token = ${token}, lease_until = ${at(leaseEnd(RESOURCE_APPLY, now))}
          where ${this.where(k)} and ${leaseFree(sql`lease_until`, now)} and ${this.pending(now)}
          returning desired_generation as desired`,
    );
    return row?.desired;
  }

  /**
   * Success: recorded only while `generation` is still the desired one, with what the adapter
   * records. The adapter's rows are written first and the lifecycle row last, the order in which a
   * request's transaction takes them (its resource row, then `changed`), so the two never wait for
   * each other in a cycle; a lost condition rolls the adapter's record back.
   */
  private async finish(k: Key, token: string, generation: number, applied: Applied | void): Promise<boolean> {
    const now = this.clock.now();
    return this.conditionally(async (tx) => {
      if (!(await this.stillDesired(tx, k, token, generation))) return false;
      if (applied && applied.record) await applied.record(tx);
      const won = await queryRows<{ n: number }>(
        tx,
        applied && applied.gone
          ? sql`delete from resource_lifecycle where ${this.where(k, token)} and desired_generation = ${generation} returning 1 as n`
          : sql`update resource_lifecycle set applied_generation = ${generation}, failed_generation = null, attempts = 0,
                  last_error = null, last_error_at = null, retry_at = null, due_at = null, applied_at = ${at(now)}
                where ${this.where(k, token)} and desired_generation = ${generation}
                returning 1 as n`,
      );
      return won.length > 0;
    });
  }

  /** A backend refusal of `generation`: kept (with the adapter's own record) unless a newer change came meanwhile. */
  private async recordFailure(adapter: ResourceAdapter, k: Key, token: string, generation: number, err: unknown, kind: FailureKind): Promise<void> {
    const now = this.clock.now();
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    const final = kind === 'final';
    // the message is shown in the API; what only operators should read (commands, host paths) is the error's detail
    const detail = (err as { detail?: unknown } | null)?.detail;
    this.log.warn({ kind: k.kind, id: k.id, generation, err: message, ...(typeof detail === 'string' ? { detail } : {}), final }, 'resource apply failed at the backend');
    await this.conditionally(async (tx) => {
      // only the lease holder writes attempts, so reading them without a lock is safe
      const [current] = await queryRows<{ attempts: number; desired: number }>(
        tx,
        sql`select attempts, desired_generation as desired from resource_lifecycle where ${this.where(k, token)}`,
      );
      if (!current || current.desired !== generation) return false;
      const attempts = current.attempts + 1;
      const { retryAt } = afterFailure(RESOURCE_APPLY, { attempts, at: now, final });
      if (adapter.failed) await adapter.failed(tx, k.id, { error: err, message, final, attempts });
      const recorded = await queryRows<{ n: number }>(
        tx,
        sql`update resource_lifecycle set failed_generation = ${generation}, attempts = ${attempts},
              last_error = ${message}, last_error_at = ${at(now)},
              retry_at = ${retryAt ? at(retryAt) : sql`null`}, due_at = ${retryAt ? at(retryAt) : sql`null`}
            where ${this.where(k, token)} and desired_generation = ${generation}
            returning 1 as n`,
      );
      return recorded.length > 0;
    });
  }

  private async stillDesired(tx: Executor, k: Key, token: string, generation: number): Promise<boolean> {
    const [row] = await queryRows<{ desired: number }>(tx, sql`select desired_generation as desired from resource_lifecycle where ${this.where(k, token)}`);
    return row?.desired === generation;
  }

  /** Runs `fn` in a transaction that commits only when it answers true. */
  private async conditionally(fn: (tx: Executor) => Promise<boolean>): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        if (!(await fn(tx))) throw new ConditionLost();
        return true;
      });
    } catch (err) {
      if (err instanceof ConditionLost) return false;
      throw err;
    }
  }

  /** Lets go of the lease unless there is more work; then keeps it and answers the generation to apply. */
  private async releaseOrRenew(k: Key, token: string): Promise<'released' | 'lost' | number> {
    const now = this.clock.now();
    const released = await queryRows<{ n: number }>(
      this.db,
      sql`update resource_lifecycle set lease_token = null, lease_until = null
          where ${this.where(k, token)} and not ${this.pending(now)} returning 1 as n`,
    );
    if (released.length > 0) return 'released';
    const [renewed] = await queryRows<{ desired: number }>(
      this.db,
      sql`update resource_lifecycle set lease_until = ${at(leaseEnd(RESOURCE_APPLY, now))}
          where ${this.where(k, token)} returning desired_generation as desired`,
    );
    return renewed ? renewed.desired : 'lost';
  }

  /**
   * Queues the apply job of every resource that is due: a change whose job has not finished within
   * the policy's lostAfterMs, or a failed change whose automatic retry time has come. Rows that are due but
   * have nothing to do are cleared. Answers how many jobs it queued.
   */
  async sweep(): Promise<number> {
    let queued = 0;
    for (;;) {
      const now = this.clock.now();
      const rows = await this.db.transaction(async (tx) => {
        const due = await queryRows<{ kind: string; id: number; pending: boolean }>(
          tx,
          sql`with due as (
                select kind, resource_id from resource_lifecycle
                where due_at <= ${at(now)} order by due_at limit ${SWEEP_BATCH} for update skip locked
              )
              update resource_lifecycle set due_at = case when ${this.pending(now)} then ${at(now)} + ${ms(RESOURCE_APPLY.lostAfterMs)} else null end
              from due where resource_lifecycle.kind = due.kind and resource_lifecycle.resource_id = due.resource_id
              returning resource_lifecycle.kind, resource_lifecycle.resource_id as id, ${this.pending(now)} as pending`,
        );
        const work = due.filter((r) => r.pending && this.adapters.has(r.kind)).map((r) => ({ kind: r.kind, id: Number(r.id) }));
        await this.queue.sendMany(this.applyJob, work, { tx, singletonKey: keyOf });
        return { due: due.length, work: work.length };
      });
      queued += rows.work;
      if (rows.due < SWEEP_BATCH) return queued;
    }
  }
}

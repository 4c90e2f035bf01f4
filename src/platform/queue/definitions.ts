import cronParser from 'cron-parser';
import type { Logger } from 'pino';
import type { Executor } from '../db/database.js';

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

export interface Envelope {
  task: string;
  payload: object;
  /** 'schedule' on the jobs a schedule created (how the last scheduled run is found) */
  source?: 'schedule';
}

export function defineJob<P extends object>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
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

/** The queue a job is sent to: its own, or the one it shares (`queue`). */
export function queueOf(def: JobDefinition<any>): string {
  return def.queue ?? def.name;
}

export function policyOf(def: JobDefinition<any>): QueuePolicy {
  return def.policy ?? 'standard';
}

/**
 * The queue a scheduled job's schedule fires into: the job's name. pg-boss keeps one schedule per
 * queue (its name is the schedule's key), so two schedules on one shared queue would overwrite
 * each other, and one of the two jobs would never run.
 */
export function scheduleQueueOf(def: JobDefinition<any>): string {
  return def.name;
}

/** Every queue a job arrives on: the one it is sent to, and its schedule's. */
export function queuesOf(def: JobDefinition<any>): string[] {
  return def.schedule ? [...new Set([queueOf(def), scheduleQueueOf(def)])] : [queueOf(def)];
}

/** The registered job definitions, checked as they come in. */
export class JobRegistry {
  private readonly jobs = new Map<string, JobDefinition<any>>();

  register(...defs: JobDefinition<any>[]): void {
    for (const def of defs) {
      if (this.jobs.has(def.name)) throw new Error(`job ${def.name} registered twice`);
      if (def.schedule) cronParser.parseExpression(def.schedule, { tz: 'UTC' }); // throws on a bad expression
      const queue = queueOf(def);
      const other = [...this.jobs.values()].find((d) => queueOf(d) === queue && policyOf(d) !== policyOf(def));
      if (other) throw new Error(`jobs ${other.name} and ${def.name} share queue ${queue} with different policies`);
      // A schedule's queue carries that schedule only: no other job may be sent to it.
      const taken = [...this.jobs.values()].find((d) => (d.schedule && scheduleQueueOf(d) === queue) || (def.schedule && queueOf(d) === scheduleQueueOf(def)));
      if (taken) throw new Error(`job ${def.name}: queue ${queue === taken.name ? queue : def.name} is the schedule queue of ${taken.name === def.name ? 'another job' : taken.name}`);
      this.jobs.set(def.name, def);
    }
  }

  all(): JobDefinition<any>[] {
    return [...this.jobs.values()];
  }

  get(name: string): JobDefinition<any> | undefined {
    return this.jobs.get(name);
  }

  /** A job is registered before anything is sent to it. */
  assertRegistered(def: JobDefinition<any>): void {
    if (!this.jobs.has(def.name)) throw new Error(`job ${def.name} is not registered`);
  }

  scheduled(): JobDefinition<any>[] {
    return this.all().filter((d) => d.schedule);
  }

  /** Every queue some job arrives on. */
  queues(): Set<string> {
    return new Set(this.all().flatMap((d) => queuesOf(d)));
  }
}

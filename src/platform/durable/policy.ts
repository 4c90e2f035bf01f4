import type { Backoff } from './backoff.js';

/**
 * The rules of one kind of durable outside work (docs/architecture.md, "Durable work"): how long
 * a claim holds it, when a failure is tried again, when it gives up, and when the sweep takes it
 * for lost. The work's own table holds the state (its lease, its attempts, its next time); the
 * functions here and in lease.ts and sweep.ts read the policy, so two kinds of work never differ
 * in anything but their numbers.
 */
export interface DurablePolicy {
  /** names the work in logs */
  readonly name: string;
  /**
   * How long one claim holds a piece of work; after it another worker may take the work over (its
   * worker stopped). null: the work runs in one database transaction under a row lock, which its
   * connection gives back when the worker dies, so there is no lease to run out.
   */
  readonly leaseMs: number | null;
  /** the wait before each retry */
  readonly backoff: Backoff;
  /** failed attempts in a row after which the work gives up (Infinity: only a final failure does) */
  readonly maxAttempts: number;
  /** work still not done this long after it was due is taken for lost: the sweep queues it again */
  readonly lostAfterMs: number;
  /** the sweep's cron expression (UTC) */
  readonly sweepSchedule: string;
  /** what giving up does, in words (the caller's give-up hook does it) */
  readonly onGiveUp: string;
}

export function definePolicy(policy: DurablePolicy): DurablePolicy {
  if (!(policy.maxAttempts >= 1)) throw new Error(`durable work ${policy.name}: maxAttempts must be at least 1`);
  if (policy.leaseMs !== null && !(policy.leaseMs > 0)) throw new Error(`durable work ${policy.name}: leaseMs must be positive`);
  return Object.freeze(policy);
}

/** What to do after a failed attempt: try again at `retryAt`, or give up (the caller's hook runs). */
export type AfterFailure = { giveUp: false; retryAt: Date } | { giveUp: true; retryAt: null; why: GiveUpReason };

/**
 * 'final': the failure itself says retrying cannot help (a 410, a business rule); 'attempts': the
 * policy's maxAttempts are used up; 'schedule': the backoff has no wait left.
 */
export type GiveUpReason = 'final' | 'attempts' | 'schedule';

/**
 * The decision after the `attempts`-th failed attempt in a row (this one included), failed at `at`.
 */
export function afterFailure(policy: DurablePolicy, f: { attempts: number; at: Date; final?: boolean; random?: number }): AfterFailure {
  if (f.final) return { giveUp: true, retryAt: null, why: 'final' };
  if (f.attempts >= policy.maxAttempts) return { giveUp: true, retryAt: null, why: 'attempts' };
  const wait = policy.backoff.delayMs(f.attempts, f.random);
  if (wait === null) return { giveUp: true, retryAt: null, why: 'schedule' };
  return { giveUp: false, retryAt: new Date(f.at.getTime() + wait) };
}

/**
 * After a failed attempt, runs the policy's decision: `retry` with the time of the next attempt,
 * or `giveUp` (the policy's give-up: a status, a notice, a flag for staff) with why. Both run
 * where the caller runs this, typically the short transaction that records the attempt.
 */
export function settleFailure<T>(
  policy: DurablePolicy,
  failure: { attempts: number; at: Date; final?: boolean; random?: number },
  hooks: { retry(retryAt: Date): T; giveUp(why: GiveUpReason): T },
): T {
  const next = afterFailure(policy, failure);
  return next.giveUp ? hooks.giveUp(next.why) : hooks.retry(next.retryAt);
}

/** The end of a lease taken at `now`. */
export function leaseEnd(policy: DurablePolicy, now: Date): Date {
  if (policy.leaseMs === null) throw new Error(`durable work ${policy.name} takes no lease`);
  return new Date(now.getTime() + policy.leaseMs);
}

/** The instant before which work due since then counts as lost. */
export function lostBefore(policy: DurablePolicy, now: Date): Date {
  return new Date(now.getTime() - policy.lostAfterMs);
}

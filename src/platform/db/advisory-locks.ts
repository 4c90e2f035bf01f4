import { sql } from 'drizzle-orm';
import type { Executor } from './database.js';

/**
 * Every PostgreSQL advisory lock the platform takes, named in one place so that two features can
 * never share a key by accident. All are transaction-level (`pg_advisory_xact_lock`): released
 * at commit or rollback, never held across a request.
 *
 * Two key spaces, which PostgreSQL keeps apart: a single 64-bit key (`GLOBAL_LOCKS`, one lock for
 * the whole platform) and a pair of 32-bit keys (`SCOPED_LOCKS`, a namespace and an id, one
 * lock per id). Keys are unique across both tables (`advisory-locks.test.ts` checks it).
 */
export const GLOBAL_LOCKS = {
  /** each chunk of the hourly charge: one chunk at a time, in any process */
  hourlyCharge: 730_001,
  /** appending to the ticket stream's log: ids are handed out in commit order */
  ticketStream: 731_013,
  /** claiming a referral: one claim at a time (a referral cycle spans customers) */
  referralClaims: 731_101,
  /** claiming webhook deliveries: the in-flight caps are counted and taken by one claim at a time */
  webhookClaims: 731_201,
} as const;

export const SCOPED_LOCKS = {
  /** a customer's deposit checks (the id is the customer id) */
  customerDeposits: 720_301,
  /** allocating public addresses in a location (the id is the location id) */
  locationAddresses: 720_401,
  /** creating a customer's alert policies: the count and its limit (the id is the customer id) */
  alertPolicies: 720_501,
} as const;

export type GlobalLock = keyof typeof GLOBAL_LOCKS;
export type ScopedLock = keyof typeof SCOPED_LOCKS;

/** Waits for the platform-wide lock `name` until the transaction ends. */
export async function lockGlobal(tx: Executor, name: GlobalLock): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${GLOBAL_LOCKS[name]}::bigint)`);
}

/** Waits for the lock `name` of one id (a customer, a location) until the transaction ends. */
export async function lockScoped(tx: Executor, name: ScopedLock, id: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SCOPED_LOCKS[name]}::int, ${id}::int)`);
}

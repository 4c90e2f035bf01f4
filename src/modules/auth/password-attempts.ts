import { verifyPassword } from '../../platform/crypto/index.js';
import type { Executor } from '../../platform/db/database.js';
import { RateLimitedError } from '../../platform/errors.js';
import type { AuthRepository } from './auth.repository.js';

/**
 * Login, sudo and change-password share one per-account failure counter. An attempt is counted
 * before the (slow) password check, so parallel guesses cannot outrun the lock; a right password
 * releases it again.
 */
export const accountLocked = (until: Date, now: Date) => new RateLimitedError((until.getTime() - now.getTime()) / 1000, 'Too many failed password attempts, try again later');

export interface ReservedAttempt {
  /** This attempt was the last one allowed and locked the account. */
  locks: boolean;
  lockedUntil: Date | null;
}

/** Counts an attempt; 429 while the account is locked. */
export async function reservePasswordAttempt(repo: AuthRepository, ex: Executor, customerId: number, now: Date): Promise<ReservedAttempt> {
  const attempt = await repo.reserveLoginAttempt(ex, customerId, now);
  if (!attempt.allowed) throw accountLocked(attempt.lockedUntil, now);
  return { locks: attempt.locks, lockedUntil: attempt.lockedUntil };
}

/** A wrong password: 429 when this attempt locked the account, else false for the caller's own error. */
export function wrongPassword(attempt: ReservedAttempt, now: Date): false {
  if (attempt.locks && attempt.lockedUntil) throw accountLocked(attempt.lockedUntil, now);
  return false;
}

/** A right password: releases the attempt (holding the row lock in `ex`); 429 if another attempt locked the account meanwhile. */
export async function releasePasswordAttempt(repo: AuthRepository, ex: Executor, customerId: number, attempt: ReservedAttempt, now: Date): Promise<void> {
  const released = await repo.releaseLoginAttempt(ex, customerId, now, attempt.locks);
  if (!released.released) throw accountLocked(released.lockedUntil, now);
}

/** The whole round for sudo and change-password: true for the right password, false for a wrong one, 429 while locked. */
export async function checkCountedPassword(repo: AuthRepository, ex: Executor, customer: { id: number; passwordHash: string }, password: string, now: Date): Promise<boolean> {
  const attempt = await reservePasswordAttempt(repo, ex, customer.id, now);
  if (!(await verifyPassword(customer.passwordHash, password))) return wrongPassword(attempt, now);
  await releasePasswordAttempt(repo, ex, customer.id, attempt, now);
  return true;
}

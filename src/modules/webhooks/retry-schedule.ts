const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The waits before each retry after a failed attempt (1 attempt + 9 retries, about three days in
 * all). Each wait is moved by up to ±10 % at random, so endpoints that failed together are not
 * retried together.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 12 * HOUR, 18 * HOUR, 24 * HOUR];
export const JITTER = 0.1;

/**
 * When to try again after the `failedSteps`-th failed attempt (1 for the first), or null when the
 * schedule is spent. `random` is in [0, 1).
 */
export function nextAttemptAt(failedAt: Date, failedSteps: number, random: number = Math.random()): Date | null {
  const base = RETRY_DELAYS_MS[failedSteps - 1];
  if (base === undefined) return null;
  const factor = 1 + JITTER * (2 * random - 1);
  return new Date(failedAt.getTime() + Math.round(base * factor));
}

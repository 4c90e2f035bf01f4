import { definePolicy, steps } from '../../platform/durable/index.js';
import { DELIVERY_TIMEOUT_MS } from './webhook-sender.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The waits before each retry after a failed attempt (1 attempt + 9 retries, about three days in
 * all). Each wait is moved by up to ±10 % at random, so endpoints that failed together are not
 * retried together.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 12 * HOUR, 18 * HOUR, 24 * HOUR];
export const JITTER = 0.1;
/** One attempt holds its delivery this long: the request's timeout and time to record the answer. */
export const ATTEMPT_LEASE_MS = DELIVERY_TIMEOUT_MS + 45_000;
/** An event not fanned out this long after it occurred (a lost fan-out job) is fanned out by the sweep. */
export const REQUEUE_AFTER_MS = 10 * MINUTE;

/**
 * The durable-work policy of webhook deliveries (docs/architecture.md, "Durable work"): the
 * deliveries table is the queue, an attempt holds its delivery for ATTEMPT_LEASE_MS, a failure is
 * tried again on RETRY_DELAYS_MS, and after the tenth failed attempt (or a 410) the delivery gives
 * up.
 */
export const WEBHOOK_DELIVERY = definePolicy({
  name: 'webhooks',
  leaseMs: ATTEMPT_LEASE_MS,
  backoff: steps(RETRY_DELAYS_MS, { jitter: JITTER }),
  maxAttempts: RETRY_DELAYS_MS.length + 1,
  lostAfterMs: REQUEUE_AFTER_MS,
  sweepSchedule: '* * * * *',
  onGiveUp: 'the delivery ends failed (a replay starts its schedule again); an endpoint that answered 410 is disabled and its owner told',
});

import { definePolicy, every } from '../../platform/durable/index.js';

const MINUTE = 60_000;

/** Runs of the credit task pg-boss makes after its first (seconds to minutes apart, its own back-off). */
export const CREDIT_TASK_RETRIES = 10;

/**
 * The durable-work policy of crediting a paid top-up (docs/architecture.md, "Durable work").
 * Money is credited exactly once by the invoice's row lock and the ledger's key, not by a lease:
 * a credit is one transaction, and a worker that dies in it takes its locks with its connection.
 * A failed credit is run again by the task's own retries, then by the sweep every 15 minutes,
 * until 20 runs failed; a Paid invoice still uncredited 10 minutes after payment counts as lost.
 */
export const TOPUP_CREDIT = definePolicy({
  name: 'top-up credits',
  leaseMs: null,
  backoff: { ...every(15 * MINUTE), text: `${CREDIT_TASK_RETRIES} retries of the credit task, then every 15 min by the sweep` },
  maxAttempts: 20,
  lostAfterMs: 10 * MINUTE,
  sweepSchedule: '*/15 * * * *',
  onGiveUp:
    'the credit failure is flagged permanent for staff (GET /api/backoffice/billing/credit-failures, the metric topup_credit_failures_open); the sweep leaves it until staff retry it',
});

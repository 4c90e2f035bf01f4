import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { BillingRepository } from './billing.repository.js';

/**
 * The recorded payment callbacks (the reconciliation trail of GET
 * /api/backoffice/billing/payment-callbacks) are capped and pruned so that a flood of forged
 * callbacks cannot fill the database: a verified callback keeps up to 16 KiB of its body and is
 * kept 400 days (disputes and a yearly audit); an unverified one keeps up to 2 KiB for 30 days.
 * Real callbacks are well under 1 KiB.
 */
export const CALLBACK_BODY_MAX_BYTES = { verified: 16 * 1024, unverified: 2 * 1024 } as const;
export const CALLBACK_RETENTION_DAYS = { verified: 400, unverified: 30 } as const;
const DAY_MS = 24 * 3600_000;

/** The body as stored: whole when it fits, else its first bytes and a note of the size received. */
export function capCallbackBody(raw: string, verified: boolean): string {
  const max = verified ? CALLBACK_BODY_MAX_BYTES.verified : CALLBACK_BODY_MAX_BYTES.unverified;
  const bytes = Buffer.from(raw, 'utf8');
  if (bytes.length <= max) return raw;
  // a cut inside a multi-byte character decodes to U+FFFD, which PostgreSQL text stores fine
  return `${bytes.subarray(0, max).toString('utf8')}…[truncated: ${bytes.length} bytes received]`;
}

export function callbackRetentionJob(deps: { db: Database; repo: BillingRepository; clock: Clock }) {
  return defineJob<object>({
    name: 'billing.prune-callbacks',
    schedule: '45 3 * * *',
    description: `Deletes recorded payment callbacks older than ${CALLBACK_RETENTION_DAYS.verified} days (verified) or ${CALLBACK_RETENTION_DAYS.unverified} days (unverified)`,
    handler: async (_payload, ctx) => {
      const now = deps.clock.now().getTime();
      const deleted = await deps.repo.pruneCallbacks(
        deps.db,
        new Date(now - CALLBACK_RETENTION_DAYS.verified * DAY_MS),
        new Date(now - CALLBACK_RETENTION_DAYS.unverified * DAY_MS),
      );
      if (deleted > 0) ctx.log.info({ deleted }, 'old payment callbacks deleted');
    },
  });
}

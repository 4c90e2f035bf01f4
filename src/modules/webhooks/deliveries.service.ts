import type { SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { decryptSecret } from '../../platform/crypto/index.js';
import { lockGlobal } from '../../platform/db/advisory-locks.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { defineSweepJob, leaseEnd, lostBefore, settleFailure } from '../../platform/durable/index.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { AttemptsRepository, ClaimedDelivery } from './attempts.repository.js';
import type { DeliveriesRepository, JobsSql } from './deliveries.repository.js';
import { WEBHOOK_DELIVERY } from './deliveries.policy.js';
import type { AttemptResult, WebhookSender } from './webhook-sender.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Attempts in flight at once to one endpoint, over every worker process. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 8;
/** Attempts in flight at once to all of one account's endpoints, over every worker process. */
export const MAX_IN_FLIGHT_PER_CUSTOMER = 16;
/** An endpoint with no delivered attempt for this long is disabled, and its owner told. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
/** Events (with their deliveries and attempts) are kept this long. */
export const EVENT_RETENTION_DAYS = 30;
const SWEEP_CHUNK = 1000;

/** The in-app notice of a disabled endpoint (the notifications module, through the endpoint-disabled flow). */
export interface EndpointDisabledNotifier {
  notify(customerId: number, kind: 'WEBHOOK_DISABLED', content: { title: string; body: string; reference: { type: string; id: string } }, tx: Executor): Promise<unknown>;
}

/** `webhook-id`: the event's public id, the same on every attempt and replay. */
export const eventIdOf = (uuid: string) => `evt_${uuid}`;

/** The body of a delivery: the event's type, when it happened, and its data as stored. */
export function deliveryBody(type: string, occurredAt: Date, data: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(occurredAt.toISOString())},"data":${data}}`;
}

/**
 * The worker side of webhooks: fan-out of events into deliveries, fair claims of due deliveries
 * (the dispatcher runs them), attempts (HTTP outside any transaction, then one short transaction
 * to record it), the retry schedule, disabling endpoints that answer 410 or keep failing, and the
 * sweep that recovers what a lost job or a dead worker left behind.
 */
export class WebhookDeliveriesService {
  constructor(
    private readonly db: Database,
    private readonly repo: DeliveriesRepository,
    private readonly attempts: AttemptsRepository,
    private readonly queue: JobQueue,
    private readonly sender: WebhookSender,
    private readonly notifications: EndpointDisabledNotifier,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    /**
     * The real time, for `webhook-timestamp` only: receivers compare it with their own clocks
     * (5 minutes of tolerance), whatever the platform clock says (tests move that one).
     */
    private readonly wallClock: Clock,
    private readonly log: Logger,
    private readonly encryptionKey: Buffer,
    /** whether other processes claim on the same database (PostgreSQL), so claims take the claim lock */
    private readonly opts: { claimsShared: boolean },
  ) {}

  /** INSERT of `webhooks.fan-out` jobs for a SELECT of payloads. */
  readonly fanOutJobs: JobsSql = (payloads) => this.queue.enqueueSql(this.fanOutJob, payloads);

  async fanOut(eventIds: number[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    const n = await this.repo.fanOut(this.db, eventIds, this.clock.now());
    if (n > 0) await this.attempts.wakeDispatchers(this.db);
    return n;
  }

  /** Makes the deliveries `where` selects due again with a fresh retry schedule; answers how many. */
  replay(where: SQL): Promise<number> {
    return this.db.transaction(async (tx) => {
      const n = await this.repo.replay(tx, where, this.clock.now());
      if (n > 0) await this.attempts.wakeDispatchers(tx);
      return n;
    });
  }

  /**
   * Leases up to `limit` due deliveries for one attempt each (see AttemptsRepository.claim for
   * the fairness rules). One claim at a time over every process, so the caps hold.
   */
  claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const claim = (ex: Executor) => this.attempts.claim(ex, now, leaseEnd(WEBHOOK_DELIVERY, now), { limit, perEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT, perCustomer: MAX_IN_FLIGHT_PER_CUSTOMER });
    // the embedded database serves this one process, whose dispatcher claims one at a time
    if (!this.opts.claimsShared) return claim(this.db);
    return this.db.transaction(async (tx) => {
      await lockGlobal(tx, 'webhookClaims');
      return claim(tx);
    });
  }

  /**
   * One claimed attempt: the signed request, then its outcome recorded. When the outcome cannot
   * be recorded, the attempt stays `sending` until its lease ends and the sweep makes the
   * delivery due again.
   */
  async attempt(c: ClaimedDelivery): Promise<void> {
    const result = await this.sender.send({ url: c.url, id: eventIdOf(c.event_uuid), timestamp: this.wallClock.now(), body: deliveryBody(c.type, new Date(c.occurred_at), c.data), secrets: this.secretsOf(c) });
    try {
      await this.record(c, result);
    } catch (err) {
      this.log.error({ err, deliveryId: c.delivery_id }, 'could not record a webhook attempt');
    }
  }

  /** The current secret, and the previous one while a rotation's overlap lasts. */
  private secretsOf(c: ClaimedDelivery): string[] {
    const secrets = [decryptSecret(this.encryptionKey, c.secret_enc)];
    if (c.previous_secret_enc && c.previous_secret_expires_at && new Date(c.previous_secret_expires_at).getTime() > this.clock.now().getTime()) {
      secrets.push(decryptSecret(this.encryptionKey, c.previous_secret_enc));
    }
    return secrets;
  }

  private async record(c: ClaimedDelivery, r: AttemptResult): Promise<void> {
    const at = this.clock.now();
    const delivered = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    await this.db.transaction(async (tx) => {
      await this.attempts.finishAttempt(tx, { attemptId: c.attempt_id, status: delivered ? 'succeeded' : 'failed', statusCode: r.statusCode, durationMs: r.durationMs, responseBody: r.body, error: r.error, finishedAt: at });
      if (delivered) {
        if (await this.attempts.settleDelivery(tx, { id: c.delivery_id, attempt: c.attempt, status: 'succeeded', step: c.step, nextAttemptAt: null, at })) {
          await this.repo.endpointSucceeded(tx, c.endpoint_id, at);
        }
        return;
      }
      // retried on the policy's schedule, or given up: the delivery ends failed (a 410, final, also disables its endpoint)
      const step = c.step + 1;
      const settled = { id: c.delivery_id, attempt: c.attempt, step, at };
      await settleFailure(WEBHOOK_DELIVERY, { attempts: step, at, final: gone }, {
        retry: (retryAt) => this.attempts.settleDelivery(tx, { ...settled, status: 'pending', nextAttemptAt: retryAt }),
        giveUp: () => this.attempts.settleDelivery(tx, { ...settled, status: 'failed', nextAttemptAt: null }),
      });
      await this.repo.endpointFailed(tx, c.endpoint_id, at);
      if (gone) await this.disable(tx, c.endpoint_id, 'gone', at);
    });
  }

  /** Disables an endpoint, fails its pending deliveries and tells its owner in the app and by mail. */
  private async disable(tx: Executor, endpointId: number, reason: 'gone' | 'failing', at: Date): Promise<void> {
    const ep = await this.repo.disableEndpoint(tx, endpointId, reason, at);
    if (!ep) return;
    const why =
      reason === 'gone'
        ? 'it answered 410 Gone, which asks us to stop sending'
        : `no delivery to it has succeeded for ${DISABLE_AFTER_FAILING_MS / DAY} days`;
    const body = `Webhook endpoint ${ep.url} was disabled because ${why}. Fix it, enable it again in your webhook settings, and replay the failed events.`;
    await this.notifications.notify(ep.customer_id, 'WEBHOOK_DISABLED', { title: 'A webhook endpoint was disabled', body, reference: { type: 'webhook_endpoint', id: `${ep.id}:${at.toISOString()}` } }, tx);
    await this.mailer.queueMail(ep.email, noticeMail({ template: 'webhook_disabled', subject: 'A webhook endpoint was disabled', lines: [`Hello ${ep.first_name},`, body] }), tx);
    this.log.info({ endpointId, reason }, 'webhook endpoint disabled');
  }

  /**
   * Every minute: attempts whose worker died become `interrupted`; when deliveries are due (a
   * retry's time came, a dead worker's lease ended) the dispatchers are woken; events never fanned
   * out are fanned out; endpoints failing for 5 days are disabled.
   */
  async sweep(): Promise<{ interrupted: number; due: number; fannedOut: number; disabled: number }> {
    const now = this.clock.now();
    const interrupted = await this.attempts.interruptAbandoned(this.db, now);
    const due = await this.attempts.countDue(this.db, now);
    if (due > 0) await this.attempts.wakeDispatchers(this.db);
    const unfanned = await this.repo.unfannedEvents(this.db, lostBefore(WEBHOOK_DELIVERY, now), SWEEP_CHUNK);
    const fannedOut = await this.fanOut(unfanned);
    const failing = await this.repo.endpointsFailingSince(this.db, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS));
    for (const id of failing) await this.db.transaction((tx) => this.disable(tx, id, 'failing', now));
    return { interrupted, due, fannedOut, disabled: failing.length };
  }

  async prune(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY);
    let deleted = 0;
    for (;;) {
      const n = await this.repo.pruneEvents(this.db, before, 5000);
      deleted += n;
      if (n < 5000) return deleted;
    }
  }

  readonly fanOutJob = defineJob<{ eventIds: number[] }>({
    name: 'webhooks.fan-out',
    queue: 'webhooks',
    description: 'Turns new webhook events into one delivery per endpoint that takes them, due at once',
    record: 'failures',
    handler: async (p) => void (await this.fanOut(p.eventIds)),
    batch: {
      size: 50,
      handler: async (payloads) => {
        await this.fanOut(payloads.flatMap((p) => p.eventIds));
        return payloads.map(() => undefined);
      },
    },
  });

  readonly sweepJob = defineSweepJob(WEBHOOK_DELIVERY, {
    name: 'webhooks.sweep',
    description: 'Marks interrupted webhook attempts, wakes the dispatchers for due retries, fans out lost events, disables endpoints failing for 5 days',
    record: 'failures',
    run: () => this.sweep(),
    report: (r, log) => {
      if (r.interrupted + r.fannedOut + r.disabled > 0) log.info(r, 'webhook sweep');
    },
  });

  readonly pruneJob = defineJob<object>({
    name: 'webhooks.prune',
    schedule: '10 4 * * *',
    description: `Deletes webhook events, deliveries and attempts older than ${EVENT_RETENTION_DAYS} days`,
    handler: async (_p, ctx) => ctx.log.info({ deleted: await this.prune() }, 'webhook events pruned'),
  });
}

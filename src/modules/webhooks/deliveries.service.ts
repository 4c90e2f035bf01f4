import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { decryptSecret } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { ClaimedDelivery, DeliveriesRepository, JobsSql } from './deliveries.repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { DELIVERY_TIMEOUT_MS, type AttemptResult, type WebhookSender } from './webhook-sender.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** One attempt holds its delivery this long: the request's timeout and time to record the answer. */
export const ATTEMPT_LEASE_MS = DELIVERY_TIMEOUT_MS + 45_000;
/** A delivery queued this long ago and not attempted (a lost job, a worker that died) is queued again. */
export const REQUEUE_AFTER_MS = 10 * MINUTE;
/** An endpoint with no delivered attempt for this long is disabled, and its owner told. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
/** Events (with their deliveries and attempts) are kept this long. */
export const EVENT_RETENTION_DAYS = 30;
const SWEEP_CHUNK = 1000;

/** The in-app notice of a disabled endpoint (the notifications module, wired by the container). */
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
 * The job side of webhooks: fan-out of events into deliveries, attempts (HTTP outside any
 * transaction, then one short transaction to record it), the retry schedule, disabling endpoints
 * that answer 410 or keep failing, and the sweep that requeues what a lost job or a dead worker
 * left behind.
 */
export class WebhookDeliveriesService {
  constructor(
    private readonly db: Database,
    private readonly repo: DeliveriesRepository,
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
  ) {}

  /** INSERT of `webhooks.deliver` jobs for a SELECT of payloads. */
  readonly deliverJobs: JobsSql = (payloads) => this.queue.enqueueSql(this.deliverJob, payloads);
  /** INSERT of `webhooks.fan-out` jobs for a SELECT of payloads. */
  readonly fanOutJobs: JobsSql = (payloads) => this.queue.enqueueSql(this.fanOutJob, payloads);

  async fanOut(eventIds: number[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    return this.repo.fanOut(this.db, eventIds, this.clock.now(), this.deliverJobs);
  }

  /** One attempt for each of these deliveries that is due; answers the errors of those that could not be recorded. */
  async deliver(deliveryIds: number[]): Promise<Map<number, unknown>> {
    const now = this.clock.now();
    const claimed = await this.repo.claim(this.db, deliveryIds, now, new Date(now.getTime() + ATTEMPT_LEASE_MS));
    const failures = new Map<number, unknown>();
    await Promise.all(
      claimed.map(async (c) => {
        try {
          await this.record(c, await this.sender.send({ url: c.url, id: eventIdOf(c.event_uuid), timestamp: this.wallClock.now(), body: deliveryBody(c.type, new Date(c.occurred_at), c.data), secrets: this.secretsOf(c) }));
        } catch (err) {
          // the attempt stays `sending` until its lease ends; the sweep then tries the delivery again
          this.log.error({ err, deliveryId: c.delivery_id }, 'could not record a webhook attempt');
          failures.set(c.delivery_id, err);
        }
      }),
    );
    return failures;
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
      await this.repo.finishAttempt(tx, { attemptId: c.attempt_id, status: delivered ? 'succeeded' : 'failed', statusCode: r.statusCode, durationMs: r.durationMs, responseBody: r.body, error: r.error, finishedAt: at });
      if (delivered) {
        if (await this.repo.settleDelivery(tx, { id: c.delivery_id, attempt: c.attempt, status: 'succeeded', step: c.step, nextAttemptAt: null, at })) {
          await this.repo.endpointSucceeded(tx, c.endpoint_id, at);
        }
        return;
      }
      const step = c.step + 1;
      const next = gone ? null : nextAttemptAt(at, step);
      await this.repo.settleDelivery(tx, { id: c.delivery_id, attempt: c.attempt, status: next ? 'pending' : 'failed', step, nextAttemptAt: next, at });
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
   * Every minute: attempts whose worker died become `interrupted`; due retries, and deliveries
   * whose job was lost, are queued; events never fanned out are fanned out; endpoints failing
   * for 5 days are disabled.
   */
  async sweep(): Promise<{ interrupted: number; queued: number; fannedOut: number; disabled: number }> {
    const now = this.clock.now();
    const interrupted = await this.repo.interruptAbandoned(this.db, now);
    let queued = 0;
    for (;;) {
      const n = await this.repo.queueDue(this.db, now, new Date(now.getTime() - REQUEUE_AFTER_MS), SWEEP_CHUNK, this.deliverJobs);
      queued += n;
      if (n < SWEEP_CHUNK) break;
    }
    const unfanned = await this.repo.unfannedEvents(this.db, new Date(now.getTime() - REQUEUE_AFTER_MS), SWEEP_CHUNK);
    const fannedOut = await this.fanOut(unfanned);
    const failing = await this.repo.endpointsFailingSince(this.db, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS));
    for (const id of failing) await this.db.transaction((tx) => this.disable(tx, id, 'failing', now));
    return { interrupted, queued, fannedOut, disabled: failing.length };
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
    description: 'Turns new webhook events into one delivery per endpoint that takes them, and queues the first attempts',
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

  readonly deliverJob = defineJob<{ deliveryId: number }>({
    name: 'webhooks.deliver',
    queue: 'webhooks-deliver',
    description: 'One signed HTTP attempt of a webhook delivery (15 s timeout; only 2xx counts), then its retry time',
    record: 'failures',
    concurrency: 4,
    handler: async (p) => {
      const failures = await this.deliver([p.deliveryId]);
      if (failures.size > 0) throw failures.values().next().value;
    },
    batch: {
      size: 25,
      handler: async (payloads) => {
        const failures = await this.deliver(payloads.map((p) => p.deliveryId));
        return payloads.map((p) => failures.get(p.deliveryId));
      },
    },
  });

  readonly sweepJob = defineJob<object>({
    name: 'webhooks.sweep',
    schedule: '* * * * *',
    description: 'Queues due webhook retries and lost deliveries, marks interrupted attempts, disables endpoints failing for 5 days',
    record: 'failures',
    handler: async (_p, ctx) => {
      const r = await this.sweep();
      if (r.queued + r.interrupted + r.fannedOut + r.disabled > 0) ctx.log.info(r, 'webhook sweep');
    },
  });

  readonly pruneJob = defineJob<object>({
    name: 'webhooks.prune',
    schedule: '10 4 * * *',
    description: `Deletes webhook events, deliveries and attempts older than ${EVENT_RETENTION_DAYS} days`,
    handler: async (_p, ctx) => ctx.log.info({ deleted: await this.prune() }, 'webhook events pruned'),
  });
}

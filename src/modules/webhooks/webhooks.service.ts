import { sql } from 'drizzle-orm';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import type { Clock } from '../../platform/clock.js';
import { encryptSecret } from '../../platform/crypto/index.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, QuotaExceededError, RateLimitedError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { DeliveriesRepository } from './deliveries.repository.js';
import type { WebhookDeliveriesService } from './deliveries.service.js';
import { checkEndpointUrl, newEndpointSecret } from './endpoint-rules.js';
import { ALL_EVENTS, isEventType } from './event-types.js';
import type { WebhookOutbox } from './outbox.service.js';
import type { AttemptRow, DeliveryRow, EndpointRow, EventFilter, EventRow, WebhooksRepository } from './webhooks.repository.js';

/** Endpoints per account. */
export const MAX_ENDPOINTS = 10;
/** After a rotation the previous secret signs too for this long, so receivers can switch without losing a delivery. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
/** Test events per account and minute. */
export const TESTS_PER_MINUTE = 10;
/** Replays (of one event, or of an endpoint's failed deliveries) per account and minute. */
export const REPLAYS_PER_MINUTE = 30;

/** The shared rate-limit counters (platform/rate-limit's PostgresRateLimits). */
export interface RateCounters {
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
}

export interface EndpointInput {
  url: string;
  event_types: string[];
  description?: string;
}

export interface EndpointPatch {
  url?: string;
  event_types?: string[];
  description?: string;
  enabled?: boolean;
}

/** The customer's side of webhooks: endpoints, secrets, events with their attempts, replays, tests. */
export class WebhooksService {
  constructor(
    private readonly db: Database,
    private readonly repo: WebhooksRepository,
    private readonly deliveriesRepo: DeliveriesRepository,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
    private readonly counters: RateCounters,
    private readonly opts: { encryptionKey: Buffer; production: boolean; allowPrivateTargets: boolean },
  ) {}

  /** Counts one request of the account against a per-minute limit; 429 past it. */
  private async limit(customerId: number, name: 'webhook-tests' | 'webhook-replays', max: number, what: string): Promise<void> {
    const h = await this.counters.hit(`${name}:${customerId}`, 60_000);
    if (h.current > max) throw new RateLimitedError(h.ttl / 1000, `At most ${max} ${what} a minute per account, try again later`);
  }

  private checkUrl(url: string): string {
    return checkEndpointUrl(url, this.opts);
  }

  private checkTypes(types: string[]): string[] {
    const unique = [...new Set(types)];
    const unknown = unique.filter((t) => t !== ALL_EVENTS && !isEventType(t));
    if (unknown.length > 0) throw new ValidationError('Unknown event type', unknown.map((t) => ({ field: 'event_types', message: `unknown event type ${t}` })));
    return unique.includes(ALL_EVENTS) ? [ALL_EVENTS] : unique.sort();
  }

  /** Creates an endpoint; its signing secret is in this answer only. */
  async createEndpoint(customerId: number, input: EndpointInput): Promise<{ endpoint: EndpointRow; secret: string }> {
    const url = this.checkUrl(input.url);
    const eventTypes = this.checkTypes(input.event_types);
    const secret = newEndpointSecret();
    const endpoint = await this.db.transaction(async (tx) => {
      await this.repo.lockCustomer(tx, customerId);
      if ((await this.repo.countEndpoints(tx, customerId)) >= MAX_ENDPOINTS) throw new QuotaExceededError(`At most ${MAX_ENDPOINTS} webhook endpoints per account`);
      const now = this.clock.now();
      const endpoint = await this.repo.insertEndpoint(tx, {
        customerId,
        url,
        description: input.description?.trim() ?? '',
        eventTypes,
        secretEnc: encryptSecret(this.opts.encryptionKey, secret),
        createdAt: now,
        updatedAt: now,
      });
      noteActivityTarget(endpoint.id);
      return endpoint;
    });
    return { endpoint, secret };
  }

  listEndpoints(customerId: number): Promise<EndpointRow[]> {
    return this.repo.listEndpoints(this.db, customerId);
  }

  async getEndpoint(customerId: number, id: number): Promise<EndpointRow> {
    const endpoint = await this.repo.findEndpoint(this.db, customerId, id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint');
    return endpoint;
  }

  /**
   * Changes an endpoint. `enabled: false` stops its deliveries (pending ones fail; replay them
   * later); `enabled: true` takes events again from now on and forgets the failing streak.
   */
  async updateEndpoint(customerId: number, id: number, patch: EndpointPatch): Promise<EndpointRow> {
    const now = this.clock.now();
    const set: Partial<EndpointRow> = { updatedAt: now };
    if (patch.url !== undefined) set.url = this.checkUrl(patch.url);
    if (patch.event_types !== undefined) set.eventTypes = this.checkTypes(patch.event_types);
    if (patch.description !== undefined) set.description = patch.description.trim();
    return this.db.transaction(async (tx) => {
      const current = await this.repo.findEndpoint(tx, customerId, id);
      if (!current) throw new NotFoundError('Webhook endpoint');
      if (patch.enabled === true && current.disabledAt) Object.assign(set, { disabledAt: null, disabledReason: null, failingSince: null });
      if (patch.enabled === false && !current.disabledAt) await this.deliveriesRepo.disableEndpoint(tx, id, 'customer', now);
      return (await this.repo.updateEndpoint(tx, customerId, id, set))!;
    });
  }

  /** Deletes an endpoint with its deliveries and their attempts. */
  async deleteEndpoint(customerId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.repo.deleteEndpoint(tx, customerId, id))) throw new NotFoundError('Webhook endpoint');
    });
  }

  /**
   * A new signing secret, shown in this answer only. The previous one keeps signing for 24 hours
   * (both signatures are sent), so a receiver can switch without losing a delivery; a second
   * rotation within the overlap drops the oldest secret.
   */
  async rotateSecret(customerId: number, id: number): Promise<{ endpoint: EndpointRow; secret: string }> {
    const secret = newEndpointSecret();
    const now = this.clock.now();
    const endpoint = await this.db.transaction(async (tx) => {
      const current = await this.repo.findEndpoint(tx, customerId, id);
      if (!current) throw new NotFoundError('Webhook endpoint');
      return (await this.repo.updateEndpoint(tx, customerId, id, {
        secretEnc: encryptSecret(this.opts.encryptionKey, secret),
        previousSecretEnc: current.secretEnc,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        updatedAt: now,
      }))!;
    });
    return { endpoint, secret };
  }

  /** Sends a `webhook.test` event to this endpoint alone; answers its event id. */
  async sendTest(customerId: number, id: number): Promise<string> {
    await this.limit(customerId, 'webhook-tests', TESTS_PER_MINUTE, 'test events');
    return this.db.transaction(async (tx) => {
      const endpoint = await this.repo.findEndpoint(tx, customerId, id);
      if (!endpoint) throw new NotFoundError('Webhook endpoint');
      if (endpoint.disabledAt) throw new ConflictError('The endpoint is disabled: enable it first', 'ENDPOINT_DISABLED');
      const uuid = await this.outbox.emitTest(tx, customerId, id);
      if (!uuid) throw new ConflictError('The endpoint is disabled: enable it first', 'ENDPOINT_DISABLED');
      return uuid;
    });
  }

  /** Sends again every delivery to this endpoint that failed for good since `since`. */
  async replayFailed(customerId: number, id: number, since: Date): Promise<number> {
    await this.limit(customerId, 'webhook-replays', REPLAYS_PER_MINUTE, 'replays');
    const endpoint = await this.getEndpoint(customerId, id);
    if (endpoint.disabledAt) throw new ConflictError('The endpoint is disabled: enable it first', 'ENDPOINT_DISABLED');
    return this.deliveries.replay(sql`d.customer_id = ${customerId} and d.endpoint_id = ${id} and d.status = 'failed' and d.created_at >= ${since.toISOString()}::timestamptz`);
  }

  /** Sends one event again, to every endpoint it went to or to one of them. */
  async replayEvent(customerId: number, uuid: string, endpointId?: number): Promise<number> {
    await this.limit(customerId, 'webhook-replays', REPLAYS_PER_MINUTE, 'replays');
    const event = await this.repo.findEvent(this.db, customerId, uuid);
    if (!event) throw new NotFoundError('Event');
    if (endpointId !== undefined && !(await this.repo.deliveriesOf(this.db, [event.id])).some((d) => d.endpoint_id === endpointId)) {
      throw new NotFoundError('Delivery of this event to that endpoint');
    }
    noteActivityTarget(`evt_${uuid}`);
    return this.deliveries.replay(sql`d.customer_id = ${customerId} and d.event_id = ${event.id} ${endpointId !== undefined ? sql`and d.endpoint_id = ${endpointId}` : sql``}`);
  }

  async listEvents(customerId: number, filter: EventFilter, p: PageRequest): Promise<Page<{ event: EventRow; deliveries: DeliveryRow[] }>> {
    const page = await this.repo.listEvents(this.db, customerId, filter, p);
    const deliveries = await this.repo.deliveriesOf(this.db, page.items.map((e) => e.id));
    return { items: page.items.map((event) => ({ event, deliveries: deliveries.filter((d) => d.event_id === event.id) })), total: page.total };
  }

  /** One event with every delivery and every attempt of each. */
  async getEvent(customerId: number, uuid: string): Promise<{ event: EventRow; deliveries: { delivery: DeliveryRow; attempts: AttemptRow[] }[] }> {
    const event = await this.repo.findEvent(this.db, customerId, uuid);
    if (!event) throw new NotFoundError('Event');
    const deliveries = await this.repo.deliveriesOf(this.db, [event.id]);
    const attempts = await this.repo.attemptsOf(this.db, deliveries.map((d) => d.id));
    return { event, deliveries: deliveries.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.delivery_id === delivery.id) })) };
  }
}

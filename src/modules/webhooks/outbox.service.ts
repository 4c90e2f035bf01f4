import { LosslessNumber, stringify as stringifyLossless } from 'lossless-json';
import type { Clock } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { DeliveriesRepository, JobsSql } from './deliveries.repository.js';
import { TEST_EVENT_TYPE, type EventType } from './event-types.js';

/** One event to report: whose account, what happened, and the data an endpoint receives. */
export interface WebhookEvent {
  customerId: number;
  type: EventType;
  /** JSON data; money as {@link exactNumber} so it is written to the digit */
  data: Record<string, unknown>;
}

/**
 * The port other modules report events through. Call it with the transaction of the change the
 * event reports: the event commits or rolls back with it, so none is lost and none is invented.
 * An event is kept only for an account with an enabled endpoint that takes its type.
 */
export interface WebhookEmitter {
  emit(tx: Executor, event: WebhookEvent): Promise<void>;
  /** Many events in one statement (a batch of credits): the same as emitting each. */
  emitMany(tx: Executor, events: readonly WebhookEvent[]): Promise<void>;
}

/** A decimal text (a money amount) that goes into the event's JSON as a number, digit for digit. */
export function exactNumber(decimal: string): LosslessNumber {
  return new LosslessNumber(decimal);
}

/** The outbox: events written in the caller's transaction, each set with one fan-out job. */
export class WebhookOutbox implements WebhookEmitter {
  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly fanOutJobs: JobsSql,
    private readonly clock: Clock,
  ) {}

  async emit(tx: Executor, event: WebhookEvent): Promise<void> {
    await this.emitMany(tx, [event]);
  }

  async emitMany(tx: Executor, events: readonly WebhookEvent[]): Promise<void> {
    await this.write(
      tx,
      events.map((e) => ({ customer_id: e.customerId, type: e.type, data: e.data, endpoint_id: null })),
    );
  }

  /** A `webhook.test` event for one endpoint only; answers its id, or undefined when the endpoint is disabled. */
  async emitTest(tx: Executor, customerId: number, endpointId: number): Promise<string | undefined> {
    const at = this.clock.now();
    const [row] = await this.write(tx, [
      { customer_id: customerId, type: TEST_EVENT_TYPE, data: { message: 'This is a test event from your webhook settings.', sent_at: at.toISOString() }, endpoint_id: endpointId },
    ]);
    return row?.uuid;
  }

  private write(tx: Executor, rows: { customer_id: number; type: string; data: unknown; endpoint_id: number | null }[]) {
    return this.repo.insertEvents(tx, rows, stringifyLossless(rows) ?? '[]', this.clock.now(), this.fanOutJobs);
  }
}

import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * Where a customer wants to hear about events. The signing secret is kept sealed with
 * ENCRYPTION_KEY (it must be read to sign) and shown in clear once, at creation and at rotation;
 * after a rotation the previous secret keeps signing too until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** event types, or '*' for every type */
    eventTypes: text('event_types').array().notNull(),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** set while the endpoint receives nothing */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** 'customer', 'gone' (it answered 410) or 'failing' (nothing delivered for 5 days) */
    disabledReason: text('disabled_reason'),
    /** the first failed attempt since the last delivered one */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_customer_idx').on(t.customerId, t.id), index('webhook_endpoints_failing_idx').on(t.failingSince).where(sql`${t.disabledAt} is null and ${t.failingSince} is not null`)],
);

/**
 * The outbox: one row per event, written in the transaction of the change it reports (only when
 * the account has an enabled endpoint that takes its type), so no event is lost or invented.
 * `webhooks.fan-out` turns it into deliveries; `fanned_out_at` says it did.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** the public id: `evt_<uuid>`, also the `webhook-id` header of every delivery of it */
    uuid: uuid('uuid').notNull().default(sql`gen_random_uuid()`),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** a test event goes to this endpoint only */
    targetEndpointId: integer('target_endpoint_id').references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_events_uuid_unique').on(t.uuid),
    index('webhook_events_customer_idx').on(t.customerId, t.id),
    index('webhook_events_unfanned_idx').on(t.id).where(sql`${t.fannedOutAt} is null`),
    index('webhook_events_occurred_idx').on(t.occurredAt),
  ],
);

/**
 * One event to one endpoint. `pending` until a 2xx (`succeeded`) or until the retry schedule is
 * spent, the endpoint answers 410 or is disabled (`failed`). `step` counts the failed attempts
 * since the delivery was created or replayed (the position in the retry schedule); `lease_until`
 * holds off other workers while one attempt runs.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    step: integer('step').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_unique').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.status, t.createdAt),
  ],
);

/**
 * One HTTP attempt of a delivery: `sending` while it runs (an attempt whose worker died stays so
 * until its lease ends, then `interrupted`), then `succeeded` or `failed` with the status code,
 * the duration and the first KiB of the answer, or the error when there was no answer.
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    responseBody: text('response_body'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id), index('webhook_attempts_sending_idx').on(t.leaseUntil).where(sql`${t.status} = 'sending'`)],
);

import { deliveryBody, eventIdOf } from './deliveries.service.js';
import { EVENT_TYPES } from './event-types.js';
import type { AttemptRow, DeliveryRow, EndpointRow, EventRow } from './webhooks.repository.js';

/* The webhooks module's answers: every row the API shows is mapped here, in one place. */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const eventTypesView = () => Object.entries(EVENT_TYPES).map(([type, description]) => ({ type, description }));

export const endpointView = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  enabled: e.disabledAt === null,
  disabled_at: iso(e.disabledAt),
  disabled_reason: e.disabledReason,
  failing_since: iso(e.failingSince),
  last_success_at: iso(e.lastSuccessAt),
  previous_secret_expires_at: iso(e.previousSecretExpiresAt),
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

/** An endpoint just created or rotated: its signing secret is in this answer only. */
export const endpointWithSecretView = ({ endpoint, secret }: { endpoint: EndpointRow; secret: string }) => ({ ...endpointView(endpoint), secret });

const eventBase = (e: EventRow) => ({ id: eventIdOf(e.uuid), type: e.type, occurred_at: iso(e.occurred_at)!, payload: deliveryBody(e.type, new Date(e.occurred_at), e.data) });
const deliveryView = (d: DeliveryRow) => ({
  endpoint_id: d.endpoint_id,
  status: d.status as 'pending' | 'succeeded' | 'failed',
  attempts: d.attempts,
  next_attempt_at: d.status === 'pending' ? iso(d.next_attempt_at) : null,
  last_attempt_at: iso(d.last_attempt_at),
  succeeded_at: iso(d.succeeded_at),
});
type AttemptStatus = 'sending' | 'succeeded' | 'failed' | 'interrupted';
const attemptView = (a: AttemptRow) => ({
  attempt: a.attempt,
  status: a.status as AttemptStatus,
  started_at: iso(a.started_at)!,
  finished_at: iso(a.finished_at),
  status_code: a.status_code,
  duration_ms: a.duration_ms,
  response_body: a.response_body,
  error: a.error,
});

/** An event in the list, with each of its deliveries. */
export const eventSummaryView = ({ event, deliveries }: { event: EventRow; deliveries: DeliveryRow[] }) => ({ ...eventBase(event), deliveries: deliveries.map(deliveryView) });

/** One event with every attempt of each delivery. */
export const eventDetailView = ({ event, deliveries }: { event: EventRow; deliveries: { delivery: DeliveryRow; attempts: AttemptRow[] }[] }) => ({
  ...eventBase(event),
  deliveries: deliveries.map(({ delivery, attempts }) => ({ ...deliveryView(delivery), attempt_log: attempts.map(attemptView) })),
});

export const testSentView = (eventUuid: string) => ({ event_id: eventIdOf(eventUuid) });

export const replayedView = (replayed: number) => ({ replayed });

import { Type } from 'typebox';
import { Instant, IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { ALL_EVENTS, EVENT_TYPE_NAMES } from './event-types.js';
import { MAX_URL_LENGTH } from './endpoint-rules.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const EndpointParams = Type.Object({ id: IntId });
export const EventParams = Type.Object({
  event_id: Type.String({ pattern: '^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description: 'evt_<uuid>, the webhook-id of its deliveries' }),
});

const EventTypeName = Type.Union([...EVENT_TYPE_NAMES.map((t) => Type.Literal(t)), Type.Literal(ALL_EVENTS)], { description: 'an event type, or * for every type (also those added later)' });
const Url = Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'https URL (http is accepted outside production)' });
const Description = Type.String({ maxLength: 500 });
const EventTypes = Type.Array(EventTypeName, { minItems: 1, maxItems: EVENT_TYPE_NAMES.length + 1 });

export const CreateEndpointBody = StrictObject({ url: Url, event_types: EventTypes, description: Type.Optional(Description) });
export const PatchEndpointBody = StrictObject(
  { url: Type.Optional(Url), event_types: Type.Optional(EventTypes), description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { minProperties: 1 },
);
export const ReplayFailedBody = StrictObject({ since: Instant });
export const ReplayQuery = Type.Object({ endpoint_id: Type.Optional(IntId) });

export const EventsQuery = Type.Object({
  ...PageQuery.properties,
  endpoint_id: Type.Optional(IntId),
  type: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], { description: 'events with a delivery in this state' })),
});

export const EventTypeInfo = Type.Object({ type: Type.String(), description: Type.String() });

export const Endpoint = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_at: Nullable(Timestamp),
  disabled_reason: Nullable(Type.String({ description: "customer, gone (it answered 410) or failing (nothing delivered for 5 days)" })),
  failing_since: Nullable(Timestamp),
  last_success_at: Nullable(Timestamp),
  previous_secret_expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({ description: 'whsec_… signing secret, shown this once' }),
});

const Delivery = Type.Object({
  endpoint_id: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  last_attempt_at: Nullable(Timestamp),
  succeeded_at: Nullable(Timestamp),
});

export const Attempt = Type.Object({
  attempt: Type.Integer(),
  status: Type.Union([Type.Literal('sending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('interrupted')]),
  started_at: Timestamp,
  finished_at: Nullable(Timestamp),
  status_code: Nullable(Type.Integer()),
  duration_ms: Nullable(Type.Integer()),
  response_body: Nullable(Type.String({ description: 'the first KiB of the answer' })),
  error: Nullable(Type.String({ description: 'why there was no answer' })),
});

const EventBase = {
  id: Type.String({ description: 'evt_<uuid>: the webhook-id header of its deliveries' }),
  type: Type.String(),
  occurred_at: Timestamp,
  payload: Type.String({ description: 'the exact body every delivery of this event sends (what the signature covers)' }),
};

export const EventSummary = Type.Object({ ...EventBase, deliveries: Type.Array(Delivery) });
export const EventDetail = Type.Object({ ...EventBase, deliveries: Type.Array(Type.Object({ ...Delivery.properties, attempt_log: Type.Array(Attempt) })) });
export const Replayed = Type.Object({ replayed: Type.Integer({ description: 'deliveries queued again' }) });
export const TestSent = Type.Object({ event_id: Type.String() });

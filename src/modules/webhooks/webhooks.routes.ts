import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, Paginated } from '../../platform/http/schemas.js';
import { Type } from 'typebox';
import {
  CreateEndpointBody,
  Endpoint,
  EndpointParams,
  EndpointWithSecret,
  EventDetail,
  EventParams,
  EventsQuery,
  EventSummary,
  EventTypeInfo,
  PatchEndpointBody,
  ReplayFailedBody,
  Replayed,
  ReplayQuery,
  TestSent,
} from './webhooks.schemas.js';
import { endpointView, endpointWithSecretView, eventDetailView, eventSummaryView, eventTypesView, replayedView, testSentView } from './webhooks.present.js';
import type { WebhooksService } from './webhooks.service.js';

const tags = ['Webhooks'];
const uuidOf = (eventId: string) => eventId.slice('evt_'.length);

/** /api/webhooks: endpoints, their secrets, the events sent to them with every attempt, replays, test events. */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.get('/event-types', { schema: { tags, summary: 'The event types an endpoint can take', response: { 200: Envelope(Type.Array(EventTypeInfo)), ...errorResponses(401) } } }, async () => ({
    message: 'OK',
    data: eventTypesView(),
  }));

  app.post(
    '/endpoints',
    { config: { activity: 'webhook_endpoint.created' }, schema: { tags, summary: 'Registers an endpoint; its signing secret is in this answer only', body: CreateEndpointBody, response: { 201: Envelope(EndpointWithSecret), ...errorResponses(400, 401, 409) } } },
    async (req, reply) => {
      const created = await webhooks.createEndpoint(customerOf(req).customerId, req.body);
      return reply.status(201).send({ message: 'Endpoint created: copy the secret now, it is not shown again', data: endpointWithSecretView(created) });
    },
  );

  app.get('/endpoints', { schema: { tags, summary: 'My endpoints (at most 10)', response: { 200: Envelope(Type.Array(Endpoint)), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: (await webhooks.listEndpoints(customerOf(req).customerId)).map(endpointView),
  }));

  app.get('/endpoints/:id', { schema: { tags, summary: 'One endpoint', params: EndpointParams, response: { 200: Envelope(Endpoint), ...errorResponses(400, 401, 404) } } }, async (req) => ({
    message: 'OK',
    data: endpointView(await webhooks.getEndpoint(customerOf(req).customerId, req.params.id)),
  }));

  app.patch(
    '/endpoints/:id',
    { config: { activity: 'webhook_endpoint.updated' }, schema: { tags, summary: 'Changes an endpoint; enabled: false stops it, enabled: true starts it again', params: EndpointParams, body: PatchEndpointBody, response: { 200: Envelope(Endpoint), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'Endpoint updated', data: endpointView(await webhooks.updateEndpoint(customerOf(req).customerId, req.params.id, req.body)) }),
  );

  app.delete('/endpoints/:id', { config: { activity: 'webhook_endpoint.deleted' }, schema: { tags, summary: 'Deletes an endpoint with its delivery history', params: EndpointParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404) } } }, async (req) => {
    await webhooks.deleteEndpoint(customerOf(req).customerId, req.params.id);
    return { message: 'Endpoint deleted', data: null };
  });

  app.post(
    '/endpoints/:id/rotate-secret',
    {
      config: { activity: 'webhook_endpoint.secret_rotated' },
      schema: {
        tags,
        summary: 'A new signing secret (in this answer only); the previous one keeps signing for 24 hours',
        params: EndpointParams,
        response: { 200: Envelope(EndpointWithSecret), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      const rotated = await webhooks.rotateSecret(customerOf(req).customerId, req.params.id);
      return { message: 'Secret rotated: the previous one signs too until previous_secret_expires_at', data: endpointWithSecretView(rotated) };
    },
  );

  app.post(
    '/endpoints/:id/test',
    { config: { activity: 'webhook_endpoint.test_sent' }, schema: { tags, summary: 'Sends a webhook.test event to this endpoint (at most 10 a minute per account)', params: EndpointParams, response: { 202: Envelope(TestSent), ...errorResponses(400, 401, 404, 409, 429) } } },
    async (req, reply) => reply.status(202).send({ message: 'Test event queued', data: testSentView(await webhooks.sendTest(customerOf(req).customerId, req.params.id)) }),
  );

  app.post(
    '/endpoints/:id/replay-failed',
    { config: { activity: 'webhook_endpoint.failed_replayed' }, schema: { tags, summary: 'Sends again every delivery to this endpoint that failed for good since a time (replays: at most 30 a minute per account)', params: EndpointParams, body: ReplayFailedBody, response: { 202: Envelope(Replayed), ...errorResponses(400, 401, 404, 409, 429) } } },
    async (req, reply) =>
      reply.status(202).send({ message: 'Failed deliveries queued again', data: replayedView(await webhooks.replayFailed(customerOf(req).customerId, req.params.id, new Date(req.body.since))) }),
  );

  app.get('/events', { schema: { tags, summary: 'Events sent to my endpoints, newest first, with each delivery', querystring: EventsQuery, response: { 200: Paginated(EventSummary), ...errorResponses(400, 401) } } }, async (req) => {
    const p = pageOf(req.query);
    const { endpoint_id, type, status } = req.query;
    const page = await webhooks.listEvents(customerOf(req).customerId, { endpointId: endpoint_id, type, status }, p);
    return paginated('OK', p, { items: page.items.map(eventSummaryView), total: page.total });
  });

  app.get(
    '/events/:event_id',
    { schema: { tags, summary: 'One event with every attempt of each delivery (status code, duration, first KiB of the answer)', params: EventParams, response: { 200: Envelope(EventDetail), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: eventDetailView(await webhooks.getEvent(customerOf(req).customerId, uuidOf(req.params.event_id))) }),
  );

  app.post(
    '/events/:event_id/replay',
    { config: { activity: 'webhook_event.replayed' }, schema: { tags, summary: 'Sends an event again, to every endpoint it went to or to endpoint_id (replays: at most 30 a minute per account)', params: EventParams, querystring: ReplayQuery, response: { 202: Envelope(Replayed), ...errorResponses(400, 401, 404, 429) } } },
    async (req, reply) =>
      reply.status(202).send({ message: 'Event queued again', data: replayedView(await webhooks.replayEvent(customerOf(req).customerId, uuidOf(req.params.event_id), req.query.endpoint_id)) }),
  );
};

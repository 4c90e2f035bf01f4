import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { adminOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { documentView } from './announcements.present.js';
import { Deleted, Document, DocumentBody, DocumentIdParams, DocumentListQuery, PublishBody } from './announcements.schemas.js';
import type { AnnouncementsService } from './announcements.service.js';
import type { DocumentKind } from './announcements.tables.js';

const actorOf = (req: FastifyRequest) => ({ adminId: adminOf(req).adminId, ip: req.ip, userAgent: req.headers['user-agent'] });

/**
 * /api/backoffice/announcements and /api/backoffice/release-notes (docs/api.md, "Announcements and release notes"): the same routes
 * for both kinds of document, registered once per kind.
 */
export const announcementsAdminRoutes: FastifyPluginAsyncTypebox<{ announcements: AnnouncementsService; kind: DocumentKind }> = async (
  app,
  { announcements, kind },
) => {
  const what = kind === 'announcement' ? 'announcement' : 'release note';
  const tags = [kind === 'announcement' ? 'Backoffice announcements' : 'Backoffice release notes'];
  const audit = (verb: string) => `${kind}.${verb}`;
  const permission = 'manage_announcements';

  app.get(
    '/',
    {
      config: { permission },
      schema: { tags, summary: `Every ${what}, newest first (any status)`, querystring: DocumentListQuery, response: { 200: Paginated(Document), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await announcements.list(kind, p, req.query.status);
      return paginated('OK', p, { items: page.items.map(documentView), total: page.total });
    },
  );

  app.post(
    '/',
    {
      config: { permission, audit: audit('created') },
      schema: { tags, summary: `Create a ${what} (Draft: not visible to customers)`, body: DocumentBody, response: { 201: Envelope(Document), ...errorResponses(400, 401, 403) } },
    },
    async (req, reply) => reply.status(201).send({ message: 'Created as a draft', data: documentView(await announcements.create(kind, actorOf(req), req.body)) }),
  );

  app.get(
    '/:id',
    { config: { permission }, schema: { tags, summary: `One ${what}`, params: DocumentIdParams, response: { 200: Envelope(Document), ...errorResponses(401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: documentView(await announcements.get(kind, req.params.id)) }),
  );

  app.put(
    '/:id',
    {
      config: { permission, audit: audit('updated') },
      schema: {
        tags,
        summary: `Replace the title and message of a ${what} (its status stays)`,
        params: DocumentIdParams,
        body: DocumentBody,
        response: { 200: Envelope(Document), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Updated', data: documentView(await announcements.update(kind, actorOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    '/:id',
    {
      config: { permission, audit: audit('deleted') },
      schema: { tags, summary: `Delete a ${what} (in any status)`, params: DocumentIdParams, response: { 200: Envelope(Deleted), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'Deleted', data: await announcements.remove(kind, actorOf(req), req.params.id) }),
  );

  app.post(
    '/:id/publish',
    {
      config: { permission, audit: audit('published') },
      // The spec's publish takes no body: a request without one is read as `{}`.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        tags,
        summary: `Publish a ${what}: visible to customers (now, or at publish_at)`,
        description:
          'No body publishes now. `{ "publish_at": "<instant>" }` in the future schedules it: the status stays and `publish_at` is set until a job publishes it (checked every minute). A Published document answers 409 ALREADY_PUBLISHED.',
        params: DocumentIdParams,
        body: PublishBody,
        'x-optional-body': true,
        response: { 200: Envelope(Document), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const at = req.body?.publish_at;
      const data = documentView(await announcements.publish(kind, actorOf(req), req.params.id, at ? new Date(at) : undefined));
      return { message: data.status === 'Published' ? 'Published' : 'Publication scheduled', data };
    },
  );

  app.post(
    '/:id/unpublish',
    {
      config: { permission, audit: audit('unpublished') },
      schema: {
        tags,
        summary: `Withdraw a published ${what} (or cancel its scheduled publication)`,
        description: 'Published → Withdrawn, hidden from customers. Neither published nor scheduled: 409 NOT_PUBLISHED.',
        params: DocumentIdParams,
        response: { 200: Envelope(Document), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => ({ message: 'Withdrawn', data: documentView(await announcements.unpublish(kind, actorOf(req), req.params.id)) }),
  );
};

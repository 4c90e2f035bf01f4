import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { publicDocumentView } from './announcements.present.js';
import { PublicDocument } from './announcements.schemas.js';
import type { AnnouncementsService } from './announcements.service.js';

const tags = ['Announcements'];

/** /api/announcements and /api/release-notes: what customers see (Published only). */
export const announcementsRoutes: FastifyPluginAsyncTypebox<{ announcements: AnnouncementsService }> = async (app, { announcements }) => {
  app.get(
    '/announcements/highlight',
    {
      schema: {
        tags,
        summary: 'The newest published announcement (null when there is none)',
        response: { 200: Envelope(Type.Union([PublicDocument, Type.Null()])), ...errorResponses(401) },
      },
    },
    async () => ({ message: 'OK', data: await announcements.highlight().then((row) => row && publicDocumentView(row)) }),
  );

  app.get(
    '/announcements',
    { schema: { tags, summary: 'Published announcements, newest first', querystring: PageQuery, response: { 200: Paginated(PublicDocument), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await announcements.listPublished('announcement', p);
      return paginated('OK', p, { items: page.items.map(publicDocumentView), total: page.total });
    },
  );

  app.get(
    '/release-notes',
    { schema: { tags, summary: 'Published release notes, newest first', querystring: PageQuery, response: { 200: Paginated(PublicDocument), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await announcements.listPublished('release_note', p);
      return paginated('OK', p, { items: page.items.map(publicDocumentView), total: page.total });
    },
  );
};

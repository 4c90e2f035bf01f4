import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { contentDisposition, REPLY_BODY_LIMIT } from './ticket-attachments.js';
import { customerConversationView, customerTicketView, messageView } from './tickets.present.js';
import {
  AttachmentParams,
  BinaryFile,
  CustomerTicket,
  CustomerTicketDetail,
  CustomerTicketQuery,
  Message,
  ReplyBody,
  TicketCreateBody,
  TicketIdParams,
} from './tickets.schemas.js';
import type { TicketsService } from './tickets.service.js';

const tags = ['Support tickets'];

/** Sends a stored attachment so that no browser renders or sniffs it in the API's origin. */
export function sendAttachment(reply: FastifyReply, file: { filename: string; contentType: string; content: Buffer; sha256: string }) {
  const type = file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType;
  return reply
    .type(type)
    .header('content-disposition', contentDisposition(file.filename))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .header('etag', `"${file.sha256}"`)
    .send(file.content);
}

/** /api/ticket: the customer's support tickets (customer surface; docs/decisions.md §6 and §8). */
export const ticketsRoutes: FastifyPluginAsyncTypebox<{ tickets: TicketsService }> = async (app, { tickets }) => {
  app.post(
    '/',
    {
      bodyLimit: REPLY_BODY_LIMIT,
      config: { activity: 'ticket.created' },
      schema: {
        tags,
        summary: 'Open a support ticket (status Open), optionally with files',
        description: 'The first message may carry files as a reply does: up to 3 of at most 2 MiB each (PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type).',
        body: TicketCreateBody,
        response: { 201: Envelope(CustomerTicketDetail), ...errorResponses(400, 401, 413) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Ticket created', data: customerConversationView(await tickets.create(customerOf(req).customerId, req.body)) }),
  );

  app.get(
    '/',
    { schema: { tags, summary: 'My tickets, latest activity first', querystring: CustomerTicketQuery, response: { 200: Paginated(CustomerTicket), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await tickets.listOwn(customerOf(req).customerId, p, req.query.status);
      return paginated('OK', p, { items: page.items.map(customerTicketView), total: page.total });
    },
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'One of my tickets with its conversation', params: TicketIdParams, response: { 200: Envelope(CustomerTicketDetail), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: customerConversationView(await tickets.getOwn(customerOf(req).customerId, req.params.id)) }),
  );

  app.post(
    '/:id/reply',
    {
      config: { activity: 'ticket.replied' },
      bodyLimit: REPLY_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Reply on my ticket, optionally with files',
        description: 'Up to 3 files of at most 2 MiB each: PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type. A Closed or Archived ticket takes no reply (409).',
        params: TicketIdParams,
        body: ReplyBody,
        response: { 201: Envelope(Message), ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Reply sent', data: messageView('customer', await tickets.customerReply(customerOf(req).customerId, req.params.id, req.body)) }),
  );

  app.patch(
    '/:id/close',
    { config: { activity: 'ticket.closed' }, schema: { tags, summary: 'Close my ticket', params: TicketIdParams, response: { 200: Envelope(CustomerTicket), ...errorResponses(401, 404, 409) } } },
    async (req) => ({ message: 'Ticket closed', data: customerTicketView(await tickets.customerClose(customerOf(req).customerId, req.params.id)) }),
  );

  app.get(
    '/:id/attachments/:attachment_id',
    {
      schema: {
        tags,
        summary: 'Download a file of my ticket',
        params: AttachmentParams,
        produces: ['application/octet-stream'],
        response: { 200: BinaryFile, ...errorResponses(401, 404) },
      },
    },
    async (req, reply) => sendAttachment(reply, await tickets.ownAttachment(customerOf(req).customerId, req.params.id, req.params.attachment_id)),
  );
};

import sseModule, { type SSEPluginOptions } from '@fastify/sse';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { adminOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { REPLY_BODY_LIMIT } from './ticket-attachments.js';
import type { StreamOut, TicketStream } from './ticket-stream.service.js';
import { sendAttachment } from './tickets.routes.js';
import { messageView, staffTicketView } from './tickets.present.js';
import {
  AssignmentBody,
  AttachmentParams,
  BinaryFile,
  Conversations,
  Message,
  PriorityBody,
  ReplyBody,
  StaffTicket,
  StaffTicketQuery,
  TicketIdParams,
  TicketInsight,
} from './tickets.schemas.js';
import type { TicketsService } from './tickets.service.js';

const tags = ['Backoffice tickets'];
/** The package's CommonJS export is the fastify-plugin-wrapped function; its typings name it as a namespace. */
const sse = sseModule as unknown as FastifyPluginAsync<SSEPluginOptions>;
/** Bytes a stream may have waiting for a slow client before it is closed. */
const MAX_UNSENT_BYTES = 1024 * 1024;

export interface StaffSessionCheck {
  /**
   * false once the admin's session ended (logout, revoked, admin deleted) or their role, as it is
   * in the database now, no longer holds the permission
   */
  stillHolds(adminId: number, sessionId: string, permission: 'view_tickets'): Promise<boolean>;
}

export interface TicketsAdminOptions {
  tickets: TicketsService;
  stream: TicketStream;
  sessions: StaffSessionCheck;
  /** SSE comment line this often (ms); the session and the permission are checked at each one. */
  heartbeatMs: number;
}

/** /api/backoffice/ticket (docs/api.md, "Support tickets"), including the live stream. */
export const ticketsAdminRoutes: FastifyPluginAsyncTypebox<TicketsAdminOptions> = async (app, { tickets, stream, sessions, heartbeatMs }) => {
  const actorOf = (req: { ip: string; headers: Record<string, unknown> } & Parameters<typeof adminOf>[0]) => ({
    adminId: adminOf(req).adminId,
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
  });

  app.get(
    '/insight',
    { config: { permission: 'view_tickets' }, schema: { tags, summary: 'Ticket counts by status', response: { 200: Envelope(TicketInsight), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: await tickets.insight() }),
  );

  app.get(
    '/',
    {
      config: { permission: 'view_tickets' },
      schema: { tags, summary: 'Tickets, latest activity first (Archived only when asked for)', querystring: StaffTicketQuery, response: { 200: Paginated(StaffTicket), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const q = req.query;
      const p = pageOf(q);
      const filter = {
        ...(q.status ? { status: q.status } : {}),
        ...(q.priority ? { priority: q.priority } : {}),
        ...(q.assigned_admin_id !== undefined ? { assignedAdminId: q.assigned_admin_id } : {}),
        ...(q.unassigned ? { unassigned: true } : {}),
        ...(q.customer_id !== undefined ? { customerId: q.customer_id } : {}),
        ...(q.search ? { search: q.search } : {}),
      };
      const page = await tickets.list(filter, p);
      return paginated('OK', p, { items: page.items.map(staffTicketView), total: page.total });
    },
  );

  const openStreams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.sse?.close();
  });
  await app.register(sse, { heartbeatInterval: 0 });
  app.get(
    '/sse/stream',
    {
      sse: 'manual',
      config: { permission: 'view_tickets' },
      schema: {
        tags,
        summary: 'Live ticket stream (Server-Sent Events)',
        description:
          'Each message: `id: <event id>` and `data: {"type": NEW_TICKET | NEW_REPLY | STATUS_CHANGED | ASSIGNED | PRIORITY_CHANGED, "payload": {...}}`. ' +
          'Reconnect with `Last-Event-ID` to get what was missed; an id that is unknown, older than the 7 days kept, or more than 1,000 events back gets ' +
          '`event: reset` (`{"type": "RESET", "payload": {"reason", "last_event_id"}}`): reload the lists, then carry on. A comment line is sent every 15 s (SSE_HEARTBEAT_MS); at each, the stream ends if the session ended, the admin was deleted or their role no longer holds view_tickets. ' +
          'Works across API processes (PostgreSQL LISTEN/NOTIFY). A request without `Accept: text/event-stream` is 406 NOT_ACCEPTABLE.',
        produces: ['text/event-stream'],
        response: { 200: Type.Unsafe<string>({ type: 'string', description: 'text/event-stream' }), ...errorResponses(401, 403, 406) },
      },
    },
    async (req, reply) => {
      const admin = adminOf(req);
      // EventSource always asks for the stream; anything else (a plain GET) gets an answer, not a hanging connection.
      if (!/(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(req.headers.accept ?? '')) {
        throw new AppError(406, 'NOT_ACCEPTABLE', 'This is a Server-Sent Events stream: send Accept: text/event-stream');
      }
      const out = reply.sse!;
      out.keepAlive();
      const send = (m: StreamOut) => {
        if (!out.isConnected) return;
        // A client that stopped reading is dropped rather than buffered without end; it resumes with Last-Event-ID.
        if (reply.raw.writableLength > MAX_UNSENT_BYTES) {
          out.close();
          return;
        }
        const message =
          m.kind === 'event'
            ? { id: String(m.id), data: { type: m.type, payload: m.payload } }
            : { id: String(m.id), event: 'reset', data: { type: 'RESET', payload: { reason: m.reason, last_event_id: m.id } } };
        out.send(message).catch(() => undefined);
      };
      const unsubscribe = await stream.open(typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : undefined, send);
      if (!out.isConnected) {
        unsubscribe();
        return;
      }
      openStreams.add(reply);
      out.sendHeaders();
      reply.raw.write(': connected\nretry: 3000\n\n');
      const timer = setInterval(() => {
        if (!out.isConnected) return;
        reply.raw.write(': heartbeat\n\n');
        // the stream lives longer than its access token: the authority is read again each time
        sessions
          .stillHolds(admin.adminId, admin.sessionId, 'view_tickets')
          .then((allowed) => {
            if (!allowed) out.close();
          })
          .catch(() => undefined);
      }, heartbeatMs);
      timer.unref();
      out.onClose(() => {
        clearInterval(timer);
        unsubscribe();
        openStreams.delete(reply);
      });
    },
  );

  app.get(
    '/:id',
    { config: { permission: 'view_tickets' }, schema: { tags, summary: 'One ticket', params: TicketIdParams, response: { 200: Envelope(StaffTicket), ...errorResponses(401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: staffTicketView(await tickets.detail(req.params.id)) }),
  );

  app.get(
    '/:id/conversations',
    {
      config: { permission: 'view_tickets' },
      schema: { tags, summary: 'All messages of the ticket, oldest first (data is the list; the ticket is GET /ticket/{id})', params: TicketIdParams, response: { 200: Envelope(Conversations), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: (await tickets.conversations(req.params.id)).map((m) => messageView('staff', m)) }),
  );

  app.get(
    '/:id/attachments/:attachment_id',
    {
      config: { permission: 'view_tickets' },
      schema: { tags, summary: 'Download a file of a ticket', params: AttachmentParams, produces: ['application/octet-stream'], response: { 200: BinaryFile, ...errorResponses(401, 403, 404) } },
    },
    async (req, reply) => sendAttachment(reply, await tickets.staffAttachment(req.params.id, req.params.attachment_id)),
  );

  app.post(
    '/:id/reply',
    {
      bodyLimit: REPLY_BODY_LIMIT,
      config: { permission: 'manage_tickets', audit: 'ticket.replied' },
      schema: {
        tags,
        summary: 'Reply to the customer, optionally with files (an Open ticket becomes In Progress)',
        description: 'Up to 3 files of at most 2 MiB each: PNG, JPEG, GIF, WebP, PDF, plain text or CSV; the bytes must match the type.',
        params: TicketIdParams,
        body: ReplyBody,
        response: { 201: Envelope(Message), ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Reply sent', data: messageView('staff', await tickets.staffReply(actorOf(req), req.params.id, req.body)) }),
  );

  app.patch(
    '/:id/priority',
    {
      config: { permission: 'manage_tickets', audit: 'ticket.priority_changed' },
      schema: { tags, summary: 'Set the priority', params: TicketIdParams, body: PriorityBody, response: { 200: Envelope(StaffTicket), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Priority updated', data: staffTicketView(await tickets.setPriority(actorOf(req), req.params.id, req.body.priority)) }),
  );

  app.patch(
    '/:id/assignment',
    {
      config: { permission: 'manage_tickets', audit: 'ticket.assigned' },
      schema: {
        tags,
        summary: 'Hand the ticket to an admin who may see tickets (an Open ticket becomes In Progress)',
        params: TicketIdParams,
        body: AssignmentBody,
        response: { 200: Envelope(StaffTicket), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => ({ message: 'Ticket assigned', data: staffTicketView(await tickets.assign(actorOf(req), req.params.id, req.body.admin_id)) }),
  );

  app.patch(
    '/:id/close',
    {
      config: { permission: 'manage_tickets', audit: 'ticket.closed' },
      schema: { tags, summary: 'Close the ticket', params: TicketIdParams, response: { 200: Envelope(StaffTicket), ...errorResponses(401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Ticket closed', data: staffTicketView(await tickets.staffClose(actorOf(req), req.params.id)) }),
  );

  app.patch(
    '/:id/archive',
    {
      config: { permission: 'manage_tickets', audit: 'ticket.archived' },
      schema: { tags, summary: 'Archive a closed ticket', params: TicketIdParams, response: { 200: Envelope(StaffTicket), ...errorResponses(401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Ticket archived', data: staffTicketView(await tickets.archive(actorOf(req), req.params.id)) }),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../platform/audit-log.js';
import { AppError } from '../../platform/errors.js';
import { adminOf, customerOf } from '../../platform/http/auth.js';
import { assertOwnOrigin } from '../../platform/http/same-origin.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { ConsoleSocketQuery, ConsoleTicket, VmParams } from './compute.schemas.js';
import type { ConsoleRequester, OpenConsole, VmConsoleService } from './vm-console.service.js';
import { pipeConsole } from './vm-console.socket.js';

export interface ConsoleRouteOptions {
  consoles: VmConsoleService;
  publicUrl: string;
}

const SOCKET_DESCRIPTION = [
  'A WebSocket (`GET` with `Upgrade: websocket`) that opens with the ticket of POST …/console, within its minute, once, by whoever asked for it (the same session or API token).',
  'Client messages are typed on the serial port as they are (text or binary, at most 16 KiB each: larger closes with 1009); the guest output comes as binary messages.',
  'Refused before the upgrade: a page of another origin (403 CROSS_ORIGIN_REQUEST), a request without `Upgrade: websocket` (426 UPGRADE_REQUIRED), a bad ticket (401 INVALID_CONSOLE_TICKET), a VM that is not Running (409 VM_NOT_RUNNING), too many sessions (409 CONSOLE_SESSION_LIMIT), a port the datacenter cannot open (503 CONSOLE_UNAVAILABLE).',
  'Close codes: 1000 closed, 1001 the server is going away, 4000 the VM stopped, 4001 idle timeout, 4002 the serial port went away, 4003 whoever opened it lost access (checked at every heartbeat: their session ended, the API token was revoked, the account was deactivated; for staff, also the role no longer holding operate_compute or the staff member deleted).',
].join('\n\n');

/** The WebSocket route is documented like any other (the plugin hides it from the OpenAPI document). */
export function documentSocketRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.websocket && route.schema) route.schema.hide = false;
  });
}

/** Refuses an upgrade from another origin's page (cross-site WebSocket hijacking), then opens the console. */
export function socketOpener(publicUrl: string, consoles: VmConsoleService, requesterOf: (req: FastifyRequest) => ConsoleRequester) {
  return async (req: FastifyRequest) => {
    assertOwnOrigin(req, publicUrl);
    // a plain GET would use the ticket and open the port with no socket to join it to
    if (!req.ws) throw new AppError(426, 'UPGRADE_REQUIRED', 'This is a WebSocket: open it with Upgrade: websocket');
    const { id } = req.params as { id: number };
    (req as FastifyRequest & { console?: OpenConsole }).console = await consoles.open(requesterOf(req), id, (req.query as { ticket: string }).ticket);
  };
}

export const socketHandler = (consoles: VmConsoleService, requesterOf: (req: FastifyRequest) => ConsoleRequester) => (socket: import('ws').WebSocket, req: FastifyRequest) =>
  pipeConsole(socket, (req as FastifyRequest & { console: OpenConsole }).console, consoles, requesterOf(req).actor);

export const customerRequester = (req: FastifyRequest): ConsoleRequester => {
  const c = customerOf(req);
  return { kind: 'customer', customerId: c.customerId, sessionId: c.sessionId, actor: actorOf(req) };
};

export const adminRequester = (req: FastifyRequest): ConsoleRequester => {
  const a = adminOf(req);
  return { kind: 'admin', adminId: a.adminId, sessionId: a.sessionId, actor: actorOf(req) };
};

const tags = ['Compute'];

/** /api/compute/vm/{id}/console (customer surface): the serial console of one's own VM. */
export const vmConsoleRoutes: FastifyPluginAsyncTypebox<ConsoleRouteOptions> = async (app, { consoles, publicUrl }) => {
  documentSocketRoutes(app);
  app.post(
    '/vm/:id/console',
    {
      // the session it opens is what the activity log records (vm.console_opened / vm.console_closed)
      config: { activity: false },
      schema: {
        tags,
        summary: 'A ticket that opens the serial console of a Running VM over a WebSocket, once, within a minute',
        description: 'Another customer’s VM is 404; a VM that is not Running is 409 VM_NOT_RUNNING.',
        params: VmParams,
        response: { 201: Envelope(ConsoleTicket), ...errorResponses(401, 404, 409) },
      },
    },
    async (req, reply) => {
      const t = await consoles.issueTicket(customerRequester(req), req.params.id);
      return reply.status(201).send({ message: 'Console ticket issued', data: { ticket: t.ticket, expires_at: t.expiresAt.toISOString(), websocket_path: `/api/compute/vm/${req.params.id}/console/ws?ticket=${t.ticket}` } });
    },
  );

  app.get(
    '/vm/:id/console/ws',
    {
      websocket: true,
      schema: {
        tags,
        summary: 'The serial console of a VM (WebSocket)',
        description: SOCKET_DESCRIPTION,
        params: VmParams,
        querystring: ConsoleSocketQuery,
        response: { 101: { description: 'Switching to the WebSocket protocol', type: 'null' }, ...errorResponses(400, 401, 403, 404, 409, 426, 503) },
      },
      preHandler: socketOpener(publicUrl, consoles, customerRequester),
    },
    socketHandler(consoles, customerRequester) as never,
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { ConsoleSocketQuery, ConsoleTicket, VmParams } from './compute.schemas.js';
import { adminRequester, documentSocketRoutes, socketHandler, socketOpener, type ConsoleRouteOptions } from './vm-console.routes.js';

const tags = ['Backoffice: compute'];

/** /api/backoffice/compute/vm/{id}/console: staff open a customer's VM console; audited, and the customer is told by mail. */
export const vmConsoleAdminRoutes: FastifyPluginAsyncTypebox<ConsoleRouteOptions> = async (app, { consoles, publicUrl }) => {
  documentSocketRoutes(app);
  app.post(
    '/vm/:id/console',
    {
      config: { permission: 'operate_compute', audit: 'vm.console_ticket' },
      schema: {
        tags,
        summary: "A ticket that opens a customer's VM serial console over a WebSocket, once, within a minute",
        description: 'Opening the session is audited and the customer gets a mail. A VM that is not Running is 409 VM_NOT_RUNNING.',
        params: VmParams,
        response: { 201: Envelope(ConsoleTicket), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const t = await consoles.issueTicket(adminRequester(req), req.params.id);
      return reply.status(201).send({
        message: 'Console ticket issued',
        data: { ticket: t.ticket, expires_at: t.expiresAt.toISOString(), websocket_path: `/api/backoffice/compute/vm/${req.params.id}/console/ws?ticket=${t.ticket}` },
      });
    },
  );

  app.get(
    '/vm/:id/console/ws',
    {
      websocket: true,
      config: { permission: 'operate_compute' },
      schema: {
        tags,
        summary: "A customer's VM serial console (WebSocket)",
        description: 'As GET /api/compute/vm/{id}/console/ws, with a ticket of the backoffice route, by the same staff session.',
        params: VmParams,
        querystring: ConsoleSocketQuery,
        response: { 101: { description: 'Switching to the WebSocket protocol', type: 'null' }, ...errorResponses(400, 401, 403, 404, 409, 426, 503) },
      },
      preHandler: socketOpener(publicUrl, consoles, adminRequester),
    },
    socketHandler(consoles, adminRequester) as never,
  );
};

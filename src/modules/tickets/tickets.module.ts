import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { NotificationsService } from '../notifications/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { TicketStream } from './ticket-stream.service.js';
import { ticketsAdminRoutes, type StaffSessionCheck } from './tickets.admin-routes.js';
import { TicketsRepository } from './tickets.repository.js';
import { ticketsRoutes } from './tickets.routes.js';
import { TicketsService, type AuditRecorder } from './tickets.service.js';

export interface TicketsDeps {
  notifications: Pick<NotificationsService, 'notify'>;
  audit: AuditRecorder;
  webhookEvents: WebhookEmitter;
  /** the live stream ends when the admin's session or permission does */
  staffSessions: StaffSessionCheck;
}

/** Support tickets and their live stream for staff. */
export function createTicketsModule(p: Platform, deps: TicketsDeps) {
  const { config } = p;
  const ticketsRepo = new TicketsRepository();
  const tickets = new TicketsService(p.db, ticketsRepo, p.events, deps.notifications, deps.audit, p.clock, deps.webhookEvents, {
    mailer: p.mailer,
    ...(config.frontendUrl ? { ticketUrl: (id: number) => `${config.frontendUrl}/tickets/${id}` } : {}),
  });
  const ticketStream = new TicketStream(p.db, ticketsRepo, p.events, p.clock, p.log);
  return {
    services: { tickets, ticketStream },
    jobs: [ticketStream.pruneJob],
    routes: [
      mount('backoffice', ticketsAdminRoutes, { prefix: '/ticket', tickets, stream: ticketStream, sessions: deps.staffSessions, heartbeatMs: config.sseHeartbeatMs }),
      mount('customer', ticketsRoutes, { prefix: '/api/ticket', tickets }),
    ],
  } satisfies BuiltModule;
}

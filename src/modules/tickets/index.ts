export { TicketsService, TICKET_EVENTS_CHANNEL, type AuditRecorder as TicketsAuditRecorder } from './tickets.service.js';
export { TicketsRepository } from './tickets.repository.js';
export { TicketStream, TICKET_EVENT_RETENTION_DAYS, MAX_REPLAY } from './ticket-stream.service.js';
export { ticketsRoutes } from './tickets.routes.js';
export { ticketsAdminRoutes, type StaffSessionCheck } from './tickets.admin-routes.js';
export { MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, ALLOWED_ATTACHMENT_TYPES } from './ticket-attachments.js';
export { TICKET_STATUSES, TICKET_PRIORITIES, TICKET_EVENT_TYPES } from './tickets.tables.js';
export { createTicketsModule } from './tickets.module.js';

export { AuditService, SYSTEM_ACTOR, type Actor, type AuditEntry } from './audit.service.js';
export { AuditRepository } from './audit.repository.js';
export { actorOf, auditImpersonatedRequests } from './audit.context.js';
export { auditAdminRoutes } from './audit.admin-routes.js';
export { activityRoutes } from './audit.routes.js';

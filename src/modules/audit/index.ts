export { AuditService, SYSTEM_ACTOR, type Actor, type AuditEntry } from './audit.service.js';
export { AuditRepository } from './audit.repository.js';
export { actorOf } from '../../platform/audit-log.js';
export { auditAdminRoutes } from './audit.admin-routes.js';
export { activityRoutes } from './audit.routes.js';
export { createAuditModule } from './audit.module.js';

import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { auditAdminRoutes } from './audit.admin-routes.js';
import { AuditRepository } from './audit.repository.js';
import { activityRoutes } from './audit.routes.js';
import { AuditService, type PeopleEmails } from './audit.service.js';

/** The audit log: staff actions and the customer's own activity. */
export function createAuditModule(p: Platform, deps: { people: PeopleEmails }) {
  const audit = new AuditService(p.db, new AuditRepository(), p.clock, deps.people);
  return {
    services: { audit },
    routes: [mount('backoffice', auditAdminRoutes, { prefix: '/audit-logs', audit }), mount('customer', activityRoutes, { prefix: '/api/activity', audit })],
  } satisfies BuiltModule;
}

import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import type { AccountAccess, SessionService, TwoFactorService } from '../auth/index.js';
import type { CustomersService } from '../customers/index.js';
import { customerAdminRoutes } from './customer-admin.admin-routes.js';
import { CustomerAdminService } from './customer-admin.service.js';
import { CustomerResourcesRepository } from './customer-resources.repository.js';

export interface CustomerAdminDeps {
  customers: CustomersService;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  access: AccountAccess;
  audit: AuditService;
}

/** Staff's view and care of customers: accounts, sessions, second factor, impersonation. */
export function createCustomerAdminModule(p: Platform, deps: CustomerAdminDeps) {
  const customerAdmin = new CustomerAdminService(p.db, deps.customers, deps.sessions, deps.twoFactor, deps.audit, p.mailer, deps.access, new CustomerResourcesRepository());
  return {
    services: { customerAdmin },
    routes: [mount('backoffice', customerAdminRoutes, { service: customerAdmin, cookieSecure: p.config.cookieSecure })],
  } satisfies BuiltModule;
}

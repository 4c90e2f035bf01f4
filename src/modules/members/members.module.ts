import type { AuditLog } from '../../platform/audit-log.js';
import type { SudoCheck } from '../api-tokens/index.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { membersAdminRoutes } from './members.admin-routes.js';
import { MembersRepository } from './members.repository.js';
import { accountsRoutes, membersRoutes } from './members.routes.js';
import { MembersService, type AccountHoldings } from './members.service.js';

/** Teams: the members of a customer account, their roles, invitations and switching between accounts. */
export function createMembersModule(p: Platform, deps: { audit: AuditLog; sudo: SudoCheck; holdings: AccountHoldings }) {
  const members = new MembersService(p.db, new MembersRepository(), p.clock, p.mailer, p.config.frontendUrl || undefined, deps.audit, deps.holdings);
  return {
    services: { members },
    routes: [
      mount('customer', accountsRoutes, { prefix: '/api', members }),
      mount('customer', membersRoutes, { prefix: '/api/members', members, sudo: deps.sudo }),
      mount('backoffice', membersAdminRoutes, { members }),
    ],
  } satisfies BuiltModule;
}

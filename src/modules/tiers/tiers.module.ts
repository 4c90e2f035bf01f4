import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import { tiersAdminRoutes } from './tiers.admin-routes.js';
import { TiersRepository } from './tiers.repository.js';
import { TiersService } from './tiers.service.js';
import { tiersConstraintMeanings } from './tiers.tables.js';

/** The catalog's machine tiers. */
export function createTiersModule(p: Platform, deps: { audit: AuditService }) {
  const tiers = new TiersService(p.db, new TiersRepository(), deps.audit, p.clock);
  return {
    services: { tiers },
    routes: [mount('backoffice', tiersAdminRoutes, { tiers })],
    constraints: tiersConstraintMeanings,
  } satisfies BuiltModule;
}

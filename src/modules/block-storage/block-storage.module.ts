import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import { blockStorageAdminRoutes } from './block-storage.admin-routes.js';
import { BlockStorageRepository } from './block-storage.repository.js';
import { BlockStorageService } from './block-storage.service.js';
import { blockStorageConstraintMeanings } from './block-storage.tables.js';

/** The catalog's storage tiers and block storage machines. */
export function createBlockStorageModule(p: Platform, deps: { audit: AuditService }) {
  const blockStorage = new BlockStorageService(p.db, new BlockStorageRepository(), deps.audit, p.clock);
  return {
    services: { blockStorage },
    routes: [mount('backoffice', blockStorageAdminRoutes, { prefix: '/storage/blocks', blockStorage })],
    constraints: blockStorageConstraintMeanings,
  } satisfies BuiltModule;
}

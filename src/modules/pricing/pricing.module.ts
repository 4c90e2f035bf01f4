import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import type { BlockStorageService } from '../block-storage/index.js';
import type { TiersService } from '../tiers/index.js';
import { pricingAdminRoutes } from './pricing.admin-routes.js';
import type { PricedResourcesReader } from './pricing.ports.js';
import { PricingRepository } from './pricing.repository.js';
import { PricingService } from './pricing.service.js';
import { pricingConstraintMeanings } from './pricing.tables.js';

export interface PricingDeps {
  tiers: TiersService;
  blockStorage: BlockStorageService;
  audit: AuditService;
  /** what runs where, for the revenue impact of a price change (src/flows/running-resources.ts) */
  resources: PricedResourcesReader;
}

/** Prices: versions per location, scheduled changes and their application. */
export function createPricingModule(p: Platform, deps: PricingDeps) {
  const pricing = new PricingService(p.db, new PricingRepository(), deps.tiers, deps.blockStorage, deps.audit, p.clock, deps.resources);
  return {
    services: { pricing },
    // the catalog's default tiers first, then the first prices of the ones just made
    seed: async () => pricing.seed(await deps.tiers.seed(), (await deps.blockStorage.seed()).map((t) => t.id)),
    jobs: [pricing.applyJob],
    routes: [mount('backoffice', pricingAdminRoutes, { pricing })],
    constraints: pricingConstraintMeanings,
  } satisfies BuiltModule;
}

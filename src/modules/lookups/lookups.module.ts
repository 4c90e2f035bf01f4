import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { SettingsService } from '../settings/index.js';
import { LookupsRepository } from './lookups.repository.js';
import { lookupsRoutes } from './lookups.routes.js';
import { LookupsService } from './lookups.service.js';

/** Reference data (countries, areas, locations, terms) on the public surface. */
export function createLookupsModule(p: Platform, deps: { settings: SettingsService }) {
  const lookups = new LookupsService(p.db, new LookupsRepository(), deps.settings);
  return {
    services: { lookups },
    seed: () => lookups.seed(),
    routes: [mount('public', lookupsRoutes, { prefix: '/api/lookup', lookups })],
  } satisfies BuiltModule;
}

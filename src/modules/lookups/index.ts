export { LookupsService } from './lookups.service.js';
export { LookupsRepository } from './lookups.repository.js';
export { lookupsRoutes } from './lookups.routes.js';
export { activeLocations, type ActiveLocations } from './lookups.active-locations.js';
export { createLookupsModule } from './lookups.module.js';

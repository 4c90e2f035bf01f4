export { TiersService, type CreateTierInput } from './tiers.service.js';
export { tierTypeView } from './tiers.present.js';
export { TiersRepository, type Tier, type TierType } from './tiers.repository.js';
export { tiersAdminRoutes } from './tiers.admin-routes.js';
export { tiersConstraintMeanings, type LoadbalanceConfig } from './tiers.tables.js';
export { Tier as TierSchema } from './tiers.schemas.js';
export { createTiersModule } from './tiers.module.js';

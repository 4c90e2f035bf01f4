export { RewardsService, type CreditedTopup, REDEEM_REFERENCE, FIRST_TOP_UP_REFERENCE, REFERRAL_REFERENCE } from './rewards.service.js';
export { RewardsRepository } from './rewards.repository.js';
export { rewardsRoutes } from './rewards.routes.js';
export { rewardsAdminRoutes } from './rewards.admin-routes.js';
export { rewardsConstraintMeanings } from './rewards.tables.js';
export { createRewardsModule } from './rewards.module.js';

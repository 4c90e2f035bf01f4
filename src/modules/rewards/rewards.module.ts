import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { WalletService } from '../wallet/index.js';
import { rewardsAdminRoutes } from './rewards.admin-routes.js';
import { RewardsRepository } from './rewards.repository.js';
import { rewardsRoutes } from './rewards.routes.js';
import { RewardsService } from './rewards.service.js';
import { rewardsConstraintMeanings } from './rewards.tables.js';

/** Rewards: redeem codes, the first top-up and referral bonuses. */
export function createRewardsModule(p: Platform, deps: { wallet: WalletService }) {
  const rewards = new RewardsService(p.db, new RewardsRepository(), deps.wallet, p.clock);
  return {
    services: { rewards },
    routes: [mount('backoffice', rewardsAdminRoutes, { rewards }), mount('customer', rewardsRoutes, { prefix: '/api', rewards })],
    constraints: rewardsConstraintMeanings,
  } satisfies BuiltModule;
}

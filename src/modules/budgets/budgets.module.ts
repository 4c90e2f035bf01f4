import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { BudgetsRepository } from './budgets.repository.js';
import { budgetRoutes } from './budgets.routes.js';
import { BudgetsService, type BudgetNotifier, type SpendReader } from './budgets.service.js';

export interface BudgetsDeps {
  /** the month's charges and the runway (the charging module's usage view) */
  spend: SpendReader;
  notifications: BudgetNotifier;
  webhookEvents: WebhookEmitter;
}

/** Spend alerts: a monthly budget with thresholds, and the prepaid runway alert. */
export function createBudgetsModule(p: Platform, deps: BudgetsDeps) {
  const budgets = new BudgetsService(p.db, new BudgetsRepository(), deps.spend, deps.notifications, deps.webhookEvents, p.mailer, p.clock, p.log, p.config.currency);
  return {
    services: { budgets },
    jobs: [budgets.evaluateJob],
    routes: [mount('customer', budgetRoutes, { prefix: '/api/billing', budgets, currency: p.config.currency })],
  } satisfies BuiltModule;
}

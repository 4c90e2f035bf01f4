export { BudgetsService, monthOf, MAX_BUDGET_THRESHOLDS, MAX_BUDGET_THRESHOLD, type SpendReader, type BudgetNotifier } from './budgets.service.js';
export { BudgetsRepository } from './budgets.repository.js';
export { budgetView } from './budgets.present.js';
export { DEFAULT_BUDGET_THRESHOLDS, DEFAULT_RUNWAY_ALERT_DAYS } from './budgets.tables.js';
export { budgetRoutes } from './budgets.routes.js';
export { createBudgetsModule } from './budgets.module.js';

import { dec, moneyJson } from '../../platform/money.js';
import type { BudgetState } from './budgets.service.js';
import { DEFAULT_BUDGET_THRESHOLDS, DEFAULT_RUNWAY_ALERT_DAYS } from './budgets.tables.js';

/** GET/PUT /api/billing/budget */
export function budgetView(s: BudgetState, currency: string) {
  const b = s.budget;
  const amount = b ? b.monthlyAmount : null;
  return {
    configured: b !== undefined,
    monthly_amount: amount === null ? null : moneyJson(amount),
    thresholds: b ? [...b.thresholds].sort((x, y) => x - y) : [...DEFAULT_BUDGET_THRESHOLDS],
    runway_alert_days: b ? b.runwayAlertDays : DEFAULT_RUNWAY_ALERT_DAYS,
    currency,
    billing_type: s.billingType,
    month: s.month.slice(0, 7),
    spent: moneyJson(s.spent),
    used_percent: amount === null ? null : dec(s.spent).times(100).div(amount).floor().toNumber(),
    crossed: s.crossed.map((c) => ({ threshold_percent: c.threshold, budget: moneyJson(c.budget), spent: moneyJson(c.spent), crossed_at: c.crossedAt.toISOString() })),
    runway_hours: s.runwayHours,
    runway_alert_open: b?.runwayAlertSince != null,
    runway_alert_since: b?.runwayAlertSince ? b.runwayAlertSince.toISOString() : null,
    updated_at: b ? b.updatedAt.toISOString() : null,
  };
}

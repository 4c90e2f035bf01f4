import { Type } from 'typebox';
import { MoneyAmount, MoneyInput, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { MAX_BUDGET_THRESHOLD, MAX_BUDGET_THRESHOLDS } from './budgets.service.js';
import { DEFAULT_RUNWAY_ALERT_DAYS } from './budgets.tables.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Threshold = Type.Integer({ minimum: 1, maximum: MAX_BUDGET_THRESHOLD, description: `a whole percentage of the budget, 1 to ${MAX_BUDGET_THRESHOLD}` });
const RunwayDays = Type.Integer({ minimum: 1, maximum: 365, description: 'days, 1 to 365' });

export const BudgetBody = StrictObject({
  monthly_amount: Nullable(MoneyInput({ description: 'the monthly budget in the platform currency; null: no budget (the runway alert alone)' })),
  thresholds: Type.Optional(
    Type.Array(Threshold, { minItems: 1, maxItems: MAX_BUDGET_THRESHOLDS, description: `percentages of the budget that notify, each once per calendar month (default 50, 80, 100; at most ${MAX_BUDGET_THRESHOLDS}, no repeats)` }),
  ),
  runway_alert_days: Type.Optional(Nullable(Type.Integer({ ...RunwayDays, description: `prepaid accounts: warn when the balance lasts fewer days than this at the current hourly cost (default ${DEFAULT_RUNWAY_ALERT_DAYS}); null: no runway alert` }))),
});

export const BudgetCrossing = Type.Object({
  threshold_percent: Type.Integer(),
  budget: MoneyAmount({ description: 'the budget when it was crossed' }),
  spent: MoneyAmount({ description: "the month's charges when it was crossed" }),
  crossed_at: Timestamp,
});

export const Budget = Type.Object({
  configured: Type.Boolean({ description: 'false until the first PUT: the settings shown are the defaults and nothing is evaluated' }),
  monthly_amount: Type.Union([MoneyAmount(), Type.Null()], { description: 'null: no monthly budget' }),
  thresholds: Type.Array(Type.Integer(), { description: 'percentages, lowest first' }),
  runway_alert_days: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no runway alert (only prepaid accounts have one)' }),
  currency: Type.String(),
  billing_type: Type.String({ description: 'PREPAID or POSTPAID: only a prepaid account has a runway alert' }),
  month: Type.String({ description: 'YYYY-MM: the calendar month (UTC) the spend is counted in' }),
  spent: MoneyAmount({ description: 'charged this month so far: the hourly charges of a prepaid account, the accrual of a postpaid one' }),
  used_percent: Type.Union([Type.Integer(), Type.Null()], { description: 'spent as a whole percentage of the budget (rounded down); null without a budget' }),
  crossed: Type.Array(BudgetCrossing, { description: 'the thresholds crossed this month (each notified once)' }),
  runway_hours: Type.Union([Type.Integer(), Type.Null()], { description: 'whole hours the balance lasts at the current hourly cost; null when nothing billable runs' }),
  runway_alert_open: Type.Boolean({ description: 'the runway is below the alert days and was notified; ends once it is back above them' }),
  runway_alert_since: Type.Union([Timestamp, Type.Null()]),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});

import type { AfterCharging } from '../modules/charging/index.js';

export interface HourlyChargedListeners {
  /** the spend alerts: budget thresholds and the prepaid runway alert (never fails the charge) */
  budgets: AfterCharging;
}

/**
 * The hourly charge finished its run (charges, then the suspension sweep): the account figures a
 * budget reads (this month's charges, the balance) just changed, so the spend alerts are evaluated
 * now rather than at the next run of their own job. The listeners are passed as a function because
 * the charging module is built before the budgets module (which reads charging's usage view).
 */
export function hourlyChargedFlow(listeners: () => HourlyChargedListeners): AfterCharging {
  return { afterCharging: () => listeners().budgets.afterCharging() };
}

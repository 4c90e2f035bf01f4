import { Decimal, dec, moneyJson, rateJson } from '../../platform/money.js';
import type { ChargeFailureRow } from './charging.repository.js';
import type { LineRow, PostpaidInvoiceRow } from './postpaid.repository.js';

/* The charging module's answers (postpaid invoices, their lines, charge failures), mapped in one place. */

export function invoiceView(i: PostpaidInvoiceRow) {
  return {
    invoice_id: i.id,
    number: i.number,
    customer_id: i.customer_id,
    status: i.status,
    period_start: i.period_start.toISOString(),
    period_end: i.period_end.toISOString(),
    subtotal: moneyJson(i.subtotal),
    amount_paid: moneyJson(i.amount_paid),
    amount_due: moneyJson(dec(i.subtotal).minus(i.amount_paid)),
    currency: i.currency,
    issued_at: i.issued_at.toISOString(),
    due_at: i.due_at.toISOString(),
    overdue_at: i.overdue_at?.toISOString() ?? null,
    paid_at: i.paid_at?.toISOString() ?? null,
    paid_note: i.paid_note,
  };
}

export function lineView(l: LineRow) {
  return {
    resource_type: l.resource_type,
    resource_id: l.resource_id,
    description: l.description,
    period_start: l.period_start.toISOString(),
    period_end: l.period_end.toISOString(),
    hours: l.hours,
    usage_amount: rateJson(l.usage_amount),
    amount: moneyJson(l.amount ?? 0),
  };
}

/**
 * Rounds each line's exact usage to cents so the lines add up to the invoice subtotal exactly
 * (largest remainder): every line gets its amount rounded down, and the cents left go one by one
 * to the lines with the largest remainders (or, if the carried sub-cent remainders made the
 * subtotal smaller, are taken from the smallest).
 */
export function distribute<T extends { usage_amount: string }>(lines: T[], subtotal: string): (T & { amount: string })[] {
  const floors = lines.map((l) => dec(l.usage_amount).toDecimalPlaces(2, Decimal.ROUND_DOWN));
  let left = dec(subtotal).minus(floors.reduce((s, f) => s.plus(f), new Decimal(0))).times(100).round().toNumber();
  const order = lines.map((l, i) => ({ i, rem: dec(l.usage_amount).minus(floors[i]!) })).sort((a, b) => b.rem.cmp(a.rem) || a.i - b.i);
  const amounts = [...floors];
  for (let k = 0; left > 0 && lines.length > 0; k = (k + 1) % lines.length, left--) amounts[order[k]!.i] = amounts[order[k]!.i]!.plus('0.01');
  for (let k = lines.length - 1; left < 0 && lines.length > 0; k = (k - 1 + lines.length) % lines.length) {
    const i = order[k]!.i;
    if (amounts[i]!.gte('0.01')) {
      amounts[i] = amounts[i]!.minus('0.01');
      left++;
    }
  }
  return lines.map((l, i) => ({ ...l, amount: amounts[i]!.toFixed(2) }));
}

/** A customer whose hourly charge failed (backoffice). */
export const failureView = (f: ChargeFailureRow) => ({
  customer_id: f.customer_id,
  customer_email: f.customer_email,
  first_hour: f.first_hour.toISOString(),
  error_code: f.error_code,
  error: f.error,
  attempts: f.attempts,
  failed_at: f.failed_at.toISOString(),
  last_attempt_at: f.last_attempt_at.toISOString(),
  next_retry_at: f.next_retry_at.toISOString(),
  resolved_at: f.resolved_at?.toISOString() ?? null,
});

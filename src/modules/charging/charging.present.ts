import { dec, moneyJson, rateJson } from '../../platform/money.js';
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

/** One postpaid invoice with its lines; staff also see the customer's e-mail. */
export function invoiceDetailView({ invoice, lines }: { invoice: PostpaidInvoiceRow; lines: LineRow[] }, forStaff: boolean) {
  return { ...invoiceView(invoice), ...(forStaff ? { customer_email: invoice.customer_email ?? null } : {}), lines: lines.map(lineView) };
}

import { moneyJson } from '../../platform/money.js';
import type { PaymentMethodType } from '../../integrations/payment-gateways/index.js';
import type { PaymentCallbackRow, TopupCreditFailureWithInvoice, TopupInvoiceRow, PaymentMethodRow } from './billing.repository.js';
import type { BonusStatus } from './billing.tables.js';
import type { CouponRow } from './coupons.repository.js';
import { gatewayLabel } from './gateway-labels.js';

/* The billing module's answers: every row the API shows is mapped here, in one place. */

export type InvoiceStatusName = 'Pending' | 'Paid' | 'Failed' | 'Expired';

export function paymentMethodView(m: PaymentMethodRow) {
  return {
    gateway_name: m.gatewayName,
    gateway_label: gatewayLabel(m.gatewayName),
    method_code: m.methodCode,
    name: m.name,
    type: m.type as PaymentMethodType,
    fee_flat: moneyJson(m.feeFlat),
    fee_percent: moneyJson(m.feePercent),
  };
}

export function topupView(inv: TopupInvoiceRow) {
  return {
    invoice_id: inv.id,
    status: inv.status as InvoiceStatusName,
    amount: moneyJson(inv.amount),
    fee: moneyJson(inv.fee),
    total_amount: moneyJson(inv.totalAmount),
    bonus_amount: moneyJson(inv.bonusAmount),
    bonus_status: inv.bonusStatus as BonusStatus,
    credited_amount: inv.creditedAt ? moneyJson(inv.amount) : null,
    credited_bonus: inv.creditedBonus === null ? null : moneyJson(inv.creditedBonus),
    coupon_code: inv.couponCode,
    currency: inv.currency,
    gateway_name: inv.gatewayName,
    gateway_label: gatewayLabel(inv.gatewayName),
    method_code: inv.methodCode,
    method_name: inv.methodName,
    method_type: inv.methodType,
    payment_url: inv.paymentUrl,
    actions: { redirect_url: inv.redirectUrl, va_number: inv.vaNumber, qr_string: inv.qrString },
    created_at: inv.createdAt.toISOString(),
    expires_at: inv.expiresAt.toISOString(),
    paid_at: inv.paidAt?.toISOString() ?? null,
    credited_at: inv.creditedAt?.toISOString() ?? null,
  };
}

/** The deposit answer (POST /api/billing/deposit data); also what an Idempotency-Key replays. */
/** A top-up as staff list it: with its customer. */
export function adminTopupView(inv: TopupInvoiceRow) {
  return { ...topupView(inv), customer_id: inv.customerId };
}

export type TopupAnswer = ReturnType<typeof topupView> & { payment_url: string };

export function answerOf(inv: TopupInvoiceRow): TopupAnswer {
  return { ...topupView(inv), payment_url: inv.paymentUrl! };
}

/** A coupon (backoffice). */
export function couponView(c: CouponRow) {
  return {
    id: c.id,
    code: c.code,
    description: c.description,
    type: c.type as 'PERCENT' | 'FIXED',
    value: moneyJson(c.value),
    max_bonus: c.maxBonus === null ? null : moneyJson(c.maxBonus),
    min_deposit: moneyJson(c.minDeposit),
    valid_from: c.validFrom?.toISOString() ?? null,
    valid_until: c.validUntil?.toISOString() ?? null,
    usage_limit: c.usageLimit,
    used_count: c.usedCount,
    is_active: c.isActive,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** A received payment callback (the reconciliation trail). */
export function callbackView(c: PaymentCallbackRow) {
  return {
    id: c.id,
    gateway: c.gatewayName,
    claimed_invoice_id: c.claimedInvoiceId,
    signature_valid: c.signatureValid,
    outcome: c.outcome,
    response_status: c.responseStatus,
    remote_ip: c.remoteIp,
    headers: c.headers,
    raw_body: c.rawBody,
    received_at: c.receivedAt.toISOString(),
  };
}

/** A paid top-up whose credit failed, with its invoice (backoffice). */
export function creditFailureView({ failure, invoice }: TopupCreditFailureWithInvoice) {
  return {
    invoice_id: failure.invoiceId,
    customer_id: failure.customerId,
    amount: moneyJson(invoice.amount),
    bonus_amount: moneyJson(invoice.bonusAmount),
    currency: invoice.currency,
    gateway_name: invoice.gatewayName,
    invoice_status: invoice.status as 'Pending' | 'Paid' | 'Failed' | 'Expired',
    paid_at: invoice.paidAt?.toISOString() ?? null,
    credited_at: invoice.creditedAt?.toISOString() ?? null,
    attempts: failure.attempts,
    permanent: failure.permanent,
    error_code: failure.errorCode,
    last_error: failure.lastError,
    first_failed_at: failure.firstFailedAt.toISOString(),
    last_failed_at: failure.lastFailedAt.toISOString(),
    resolved_at: failure.resolvedAt?.toISOString() ?? null,
  };
}

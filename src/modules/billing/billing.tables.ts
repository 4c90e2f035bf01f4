import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/** What the customer can pay with, per gateway. Seeded; fees are added on top of the top-up. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    gatewayName: text('gateway_name').notNull(),
    methodCode: text('method_code').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    feeFlat: numeric('fee_flat', { precision: 18, scale: 2 }).notNull().default('0'),
    feePercent: numeric('fee_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('payment_methods_gateway_code_unique').on(t.gatewayName, t.methodCode),
    check('payment_methods_type', sql`${t.type} in ('VIRTUAL_ACCOUNT','QRIS','EWALLET','CARD')`),
  ],
);

/** Top-up coupons: a bonus credited as its own ledger entry when the top-up is paid. */
export const coupons = pgTable(
  'coupons',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    type: text('type').notNull(),
    value: numeric('value', { precision: 18, scale: 2 }).notNull(),
    maxBonus: numeric('max_bonus', { precision: 18, scale: 2 }),
    minDeposit: numeric('min_deposit', { precision: 18, scale: 2 }).notNull().default('0'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    usedCount: integer('used_count').notNull().default(sql`0`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('coupons_code_unique').on(sql`lower(${t.code})`).where(sql`${t.deletedAt} is null`),
    check('coupons_type', sql`${t.type} in ('PERCENT','FIXED')`),
    check('coupons_value_positive', sql`${t.value} > 0`),
    check('coupons_percent_range', sql`${t.type} <> 'PERCENT' or ${t.value} <= 100`),
    check('coupons_usage', sql`${t.usageLimit} is null or ${t.usedCount} <= ${t.usageLimit}`),
    check('coupons_used_nonnegative', sql`${t.usedCount} >= 0`),
    // the bounds of coupons.service.ts (COUPON_AMOUNT_MAX): a bonus never exceeds the largest top-up
    check('coupons_amounts_bound', sql`${t.value} <= 1000000000 and coalesce(${t.maxBonus}, 0) <= 1000000000 and ${t.minDeposit} <= 1000000000`),
  ],
);

/**
 * A top-up invoice. `amount` is what the wallet receives, `total_amount` (amount + fee) is what
 * the gateway charges and what its callback must state. The id is also the merchant order id.
 */
export const topupInvoices = pgTable(
  'topup_invoices',
  {
    id: uuid('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    gatewayName: text('gateway_name').notNull(),
    methodCode: text('method_code').notNull(),
    methodName: text('method_name').notNull(),
    methodType: text('method_type').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    fee: numeric('fee', { precision: 18, scale: 2 }).notNull(),
    totalAmount: numeric('total_amount', { precision: 18, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    couponId: integer('coupon_id').references(() => coupons.id),
    couponCode: text('coupon_code'),
    /** the bonus promised when the top-up was made (0 without a coupon) */
    bonusAmount: numeric('bonus_amount', { precision: 18, scale: 2 }).notNull().default('0'),
    /**
     * The coupon use behind the quoted bonus: `none` (no coupon), `reserved` (taken at top-up
     * time, held until the invoice is paid, fails or expires), `released` (given back when the
     * invoice failed or expired), `credited` (the bonus was paid), `forfeited` (paid late after the
     * use was released and the coupon had no use left: no bonus).
     */
    bonusStatus: text('bonus_status').$type<BonusStatus>().notNull().default('none'),
    /** what the credit task actually credited as bonus (null until credited) */
    creditedBonus: numeric('credited_bonus', { precision: 18, scale: 2 }),
    status: text('status').notNull().default('Pending'),
    paymentUrl: text('payment_url'),
    redirectUrl: text('redirect_url'),
    vaNumber: text('va_number'),
    qrString: text('qr_string'),
    gatewayReference: text('gateway_reference'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** when the wallet was credited (TopupCallbackSuccessTask) */
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('topup_invoices_customer_idx').on(t.customerId, t.createdAt),
    index('topup_invoices_status_created_idx').on(t.status, t.createdAt),
    index('topup_invoices_pending_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'Pending'`),
    check('topup_invoices_status', sql`${t.status} in ('Pending','Paid','Failed','Expired')`),
    check('topup_invoices_amounts', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.totalAmount} = ${t.amount} + ${t.fee}`),
    check('topup_invoices_bonus_status', sql`${t.bonusStatus} in ('none','reserved','released','credited','forfeited')`),
    index('topup_invoices_uncredited_idx').on(t.paidAt).where(sql`${t.status} = 'Paid' and ${t.creditedAt} is null`),
  ],
);

export const BONUS_STATUSES = ['none', 'reserved', 'released', 'credited', 'forfeited'] as const;
export type BonusStatus = (typeof BONUS_STATUSES)[number];

/**
 * A paid invoice whose credit task failed: flagged for staff (GET
 * /api/backoffice/billing/credit-failures). `permanent` failures (a business rule refused the
 * credit, or the task failed CREDIT_MAX_ATTEMPTS times) are no longer retried by the sweep until
 * staff retry them; `resolved_at` is set when the invoice is finally credited.
 */
export const topupCreditFailures = pgTable(
  'topup_credit_failures',
  {
    invoiceId: uuid('invoice_id')
      .primaryKey()
      .references(() => topupInvoices.id),
    customerId: integer('customer_id').notNull(),
    attempts: integer('attempts').notNull().default(sql`1`),
    permanent: boolean('permanent').notNull().default(false),
    /** the AppError code, the SQLSTATE, or INTERNAL */
    errorCode: text('error_code').notNull(),
    lastError: text('last_error').notNull(),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [index('topup_credit_failures_open_idx').on(t.lastFailedAt).where(sql`${t.resolvedAt} is null`)],
);

/** Exactly one redemption of a coupon per paid invoice. */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => topupInvoices.id),
    customerId: integer('customer_id').notNull(),
    bonusAmount: numeric('bonus_amount', { precision: 18, scale: 2 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('coupon_redemptions_invoice_unique').on(t.invoiceId), index('coupon_redemptions_coupon_idx').on(t.couponId)],
);

/** What the service did with a payment callback. */
export const CALLBACK_OUTCOMES = [
  'paid',
  'failed',
  'expired',
  'duplicate',
  'ignored',
  'invalid',
  'invalid_signature',
  'unknown_invoice',
  'amount_mismatch',
  'gateway_mismatch',
  'unconfirmed',
  'error',
] as const;
export type CallbackOutcome = (typeof CALLBACK_OUTCOMES)[number];

/** Every callback received, verified or not, as it arrived: the reconciliation trail. */
export const paymentCallbacks = pgTable(
  'payment_callbacks',
  {
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    gatewayName: text('gateway_name').notNull(),
    /** the invoice the callback claims to be about (unverified text) */
    claimedInvoiceId: text('claimed_invoice_id'),
    rawBody: text('raw_body').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    remoteIp: text('remote_ip'),
    signatureValid: boolean('signature_valid').notNull().default(false),
    outcome: text('outcome').$type<CallbackOutcome>().notNull(),
    responseStatus: integer('response_status').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // partitioned by month of received_at (drizzle/0023)
  (t) => [
    primaryKey({ columns: [t.id, t.receivedAt], name: 'payment_callbacks_pkey' }),
    index('payment_callbacks_invoice_idx').on(t.claimedInvoiceId), index('payment_callbacks_received_idx').on(t.receivedAt)],
);

/** Per-account billing settings; for now the minimum top-up override. */
export const billingAccountSettings = pgTable('billing_account_settings', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  minimumTopup: numeric('minimum_topup', { precision: 18, scale: 2 }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * One cumulative invoice per postpaid customer and month (docs/api.md, "Postpaid invoices"): issued on the 1st for
 * the month before, UNPAID → OVERDUE after its due date → PAID (paid in full from the wallet and a
 * gateway payment, or verified by staff). `subtotal` is the sum of the customer's postpaid
 * usage_charges of the month (whole cents, sub-cent remainders carried like prepaid charges).
 */
export const postpaidInvoices = pgTable(
  'postpaid_invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('UNPAID'),
    subtotal: numeric('subtotal', { precision: 18, scale: 2 }).notNull(),
    amountPaid: numeric('amount_paid', { precision: 18, scale: 2 }).notNull().default('0'),
    currency: text('currency').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    overdueAt: timestamp('overdue_at', { withTimezone: true }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidNote: text('paid_note'),
    verifiedByAdminId: integer('verified_by_admin_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('postpaid_invoices_customer_period_unique').on(t.customerId, t.periodStart),
    uniqueIndex('postpaid_invoices_number_unique').on(t.number),
    index('postpaid_invoices_status_idx').on(t.status, t.dueAt),
    check('postpaid_invoices_status', sql`${t.status} in ('UNPAID', 'OVERDUE', 'PAID')`),
    check('postpaid_invoices_paid_le_subtotal', sql`${t.amountPaid} >= 0 and ${t.amountPaid} <= ${t.subtotal}`),
  ],
);

/** A line per resource (meter) and period: its usage hours in the month and their amount. */
export const postpaidInvoiceLines = pgTable(
  'postpaid_invoice_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => postpaidInvoices.id),
    meterId: bigint('meter_id', { mode: 'number' }).notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    description: text('description').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    hours: integer('hours').notNull(),
    usageAmount: numeric('usage_amount', { precision: 20, scale: 6 }).notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
  },
  (t) => [index('postpaid_invoice_lines_invoice_idx').on(t.invoiceId)],
);

/**
 * A customer's payment of one or more invoices: the wallet part is taken at once, the remainder
 * through a gateway top-up (`topup_invoice_id`); when that top-up is credited, the remainder is
 * taken from the wallet and the invoices become PAID.
 */
export const postpaidPayments = pgTable(
  'postpaid_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    invoiceIds: uuid('invoice_ids').array().notNull(),
    total: numeric('total', { precision: 18, scale: 2 }).notNull(),
    walletAmount: numeric('wallet_amount', { precision: 18, scale: 2 }).notNull(),
    remainder: numeric('remainder', { precision: 18, scale: 2 }).notNull(),
    topupInvoiceId: uuid('topup_invoice_id'),
    /**
     * PENDING (open: waiting for the gateway part), PAID (settled its invoices), PARTIAL (settled
     * part of them), CANCELLED (settled nothing: its link failed, expired, was voided, or its
     * invoices were paid another way)
     */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    index('postpaid_payments_topup_idx').on(t.topupInvoiceId),
    // the open payments of a customer: one per invoice (postpaid-payments.service.ts)
    index('postpaid_payments_open_idx').on(t.customerId).where(sql`${t.status} = 'PENDING'`),
  ],
);

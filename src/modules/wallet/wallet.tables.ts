import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * One wallet per customer, created on first credit. Both balances are caches of the ledger:
 * actual_balance = Σ balance_logs.actual_amount, current_balance = Σ balance_logs.amount
 * (actual plus bonus credit). Only WalletService writes here, under the row lock.
 */
export const wallets = pgTable('wallets', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  actualBalance: numeric('actual_balance', { precision: 18, scale: 2 }).notNull().default('0'),
  currentBalance: numeric('current_balance', { precision: 18, scale: 2 }).notNull().default('0'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The ledger: append-only (a trigger in drizzle/routines/wallet_ledger.sql refuses UPDATE, DELETE
 * and TRUNCATE). Amounts are signed: a credit is positive, a debit negative. `amount` splits into
 * the part that moves real money (`actual_amount`) and the part that moves bonus credit
 * (`bonus_amount`). The unique (type, reference_type, reference_id) makes every business event
 * (a paid invoice, a coupon redemption, an hourly charge) land at most once.
 */
export const balanceLogs = pgTable(
  'balance_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => wallets.customerId),
    type: text('type').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    actualAmount: numeric('actual_amount', { precision: 18, scale: 2 }).notNull(),
    bonusAmount: numeric('bonus_amount', { precision: 18, scale: 2 }).notNull(),
    actualBalanceAfter: numeric('actual_balance_after', { precision: 18, scale: 2 }).notNull(),
    currentBalanceAfter: numeric('current_balance_after', { precision: 18, scale: 2 }).notNull(),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    description: text('description').notNull(),
    /** the admin who made a manual adjustment */
    createdByAdminId: integer('created_by_admin_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('balance_logs_reference_unique').on(t.type, t.referenceType, t.referenceId),
    index('balance_logs_customer_idx').on(t.customerId, t.id),
    check('balance_logs_parts_sum', sql`${t.amount} = ${t.actualAmount} + ${t.bonusAmount}`),
    check('balance_logs_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * What the last reconciliation run (wallet.reconcile) found: every wallet whose balances differ
 * from the sums of its ledger. Replaced as a whole by each run; empty when all is well.
 */
export const walletDrifts = pgTable('wallet_drifts', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => wallets.customerId),
  actualBalance: numeric('actual_balance', { precision: 18, scale: 2 }).notNull(),
  currentBalance: numeric('current_balance', { precision: 18, scale: 2 }).notNull(),
  ledgerActual: numeric('ledger_actual', { precision: 18, scale: 2 }).notNull(),
  ledgerCurrent: numeric('ledger_current', { precision: 18, scale: 2 }).notNull(),
  detectedAt: timestamp('detected_at', { withTimezone: true }).notNull(),
});

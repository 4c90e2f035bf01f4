import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
 * (a paid invoice, a coupon redemption, an hourly charge) land at most once: a partitioned table
 * cannot hold a unique key without its partition key, so the key lives in balance_log_references,
 * which a BEFORE INSERT trigger (drizzle/routines/wallet_ledger.sql) fills; an entry whose key is
 * there already is skipped, as ON CONFLICT DO NOTHING would.
 */
export const balanceLogs = pgTable(
  'balance_logs',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
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
    // partitioned by month of created_at (drizzle/0023): the key is (id, created_at)
    primaryKey({ columns: [t.id, t.createdAt], name: 'balance_logs_pkey' }),
    // the (type, reference) key is unique through balance_log_references; this finds an entry by it
    index('balance_logs_reference_idx').on(t.type, t.referenceType, t.referenceId),
    index('balance_logs_customer_idx').on(t.customerId, t.id),
    /** the dashboard's "customers who deposited this month" (top-up credits by time) */
    index('balance_logs_deposit_time_idx').on(t.createdAt, t.customerId).where(sql`${t.type} = 'BalanceLogAdd'`),
    check('balance_logs_parts_sum', sql`${t.amount} = ${t.actualAmount} + ${t.bonusAmount}`),
    check('balance_logs_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** The (type, reference) of every ledger entry: the ledger's unique key, kept outside its partitions. */
export const balanceLogReferences = pgTable(
  'balance_log_references',
  {
    type: text('type').notNull(),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.referenceType, t.referenceId], name: 'balance_log_references_pkey' })],
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

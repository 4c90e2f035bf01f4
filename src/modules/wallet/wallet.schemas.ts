import { Type } from 'typebox';
import { IntId, Money, MoneyAmount, MoneyInput, StrictObject, Timestamp } from '../../platform/http/schemas.js';

export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: 'BalanceLogAdd (top-up), BalanceLogBonus (coupon), BalanceLogAdjustAdd / BalanceLogAdjustDeduct (manual), BalanceLogCharge (usage)' }),
  amount: MoneyAmount({ description: 'signed: credits positive, debits negative' }),
  actual_amount: MoneyAmount({ description: 'the part that moved real money (actual_balance)' }),
  bonus_amount: MoneyAmount({ description: 'the part that moved bonus credit' }),
  actual_balance_after: Money,
  current_balance_after: Money,
  reference_type: Type.String(),
  reference_id: Type.String(),
  description: Type.String(),
  created_by_admin_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Timestamp,
});

export const CustomerIdParams = Type.Object({ customer_id: IntId });

export const AdjustmentBody = StrictObject({
  type: Type.Union([Type.Literal('ADD'), Type.Literal('DEDUCT')]),
  amount: MoneyInput(),
  description: Type.String({ minLength: 1, maxLength: 500 }),
});

export const Adjustment = Type.Object({
  customer_id: Type.Integer(),
  actual_balance: Money,
  current_balance: Money,
  entry: LedgerEntry,
});

export const WalletDrift = Type.Object({
  customer_id: Type.Integer(),
  actual_balance: Money,
  ledger_actual: MoneyAmount({ description: 'Σ actual_amount of the ledger' }),
  actual_drift: MoneyAmount({ description: 'actual_balance − ledger_actual' }),
  current_balance: Money,
  ledger_current: MoneyAmount({ description: 'Σ amount of the ledger' }),
  current_drift: MoneyAmount({ description: 'current_balance − ledger_current' }),
  detected_at: Timestamp,
});

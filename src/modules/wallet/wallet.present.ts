import { dec, moneyJson } from '../../platform/money.js';
import type { DriftRow, LedgerRow } from './wallet.repository.js';

/* The wallet module's answers: every row the API shows is mapped here, in one place. */

/** A ledger entry (balance_logs). */
export function ledgerEntryView(e: LedgerRow) {
  return {
    id: e.id,
    type: e.type,
    amount: moneyJson(e.amount),
    actual_amount: moneyJson(e.actualAmount),
    bonus_amount: moneyJson(e.bonusAmount),
    actual_balance_after: moneyJson(e.actualBalanceAfter),
    current_balance_after: moneyJson(e.currentBalanceAfter),
    reference_type: e.referenceType,
    reference_id: e.referenceId,
    description: e.description,
    created_by_admin_id: e.createdByAdminId,
    created_at: e.createdAt.toISOString(),
  };
}

/** A wallet whose balances differ from the sums of its ledger (the last reconciliation). */
export function driftView(d: DriftRow) {
  return {
    customer_id: d.customerId,
    actual_balance: moneyJson(d.actualBalance),
    ledger_actual: moneyJson(d.ledgerActual),
    actual_drift: moneyJson(dec(d.actualBalance).minus(d.ledgerActual)),
    current_balance: moneyJson(d.currentBalance),
    ledger_current: moneyJson(d.ledgerCurrent),
    current_drift: moneyJson(dec(d.currentBalance).minus(d.ledgerCurrent)),
    detected_at: d.detectedAt.toISOString(),
  };
}

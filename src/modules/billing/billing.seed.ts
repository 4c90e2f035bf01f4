import type { Database } from '../../platform/db/database.js';
import type { BillingRepository } from './billing.repository.js';

/** The payment methods of the two gateways; inserted once, later edits in the table are kept. */
export const DEFAULT_PAYMENT_METHODS = [
  { gatewayName: 'pgone', methodCode: 'BC', name: 'BCA Virtual Account', type: 'VIRTUAL_ACCOUNT', feeFlat: '4000.00', feePercent: '0', sortOrder: 1 },
  { gatewayName: 'pgone', methodCode: 'M2', name: 'Mandiri Virtual Account', type: 'VIRTUAL_ACCOUNT', feeFlat: '4000.00', feePercent: '0', sortOrder: 2 },
  { gatewayName: 'pgone', methodCode: 'SP', name: 'QRIS', type: 'QRIS', feeFlat: '0', feePercent: '0.70', sortOrder: 3 },
  { gatewayName: 'pgone', methodCode: 'OV', name: 'OVO', type: 'EWALLET', feeFlat: '0', feePercent: '1.50', sortOrder: 4 },
  { gatewayName: 'pgtwo', methodCode: 'BNI', name: 'BNI Virtual Account', type: 'VIRTUAL_ACCOUNT', feeFlat: '4500.00', feePercent: '0', sortOrder: 1 },
  { gatewayName: 'pgtwo', methodCode: 'QRIS', name: 'QRIS', type: 'QRIS', feeFlat: '0', feePercent: '0.70', sortOrder: 2 },
  { gatewayName: 'pgtwo', methodCode: 'DANA', name: 'DANA', type: 'EWALLET', feeFlat: '0', feePercent: '1.50', sortOrder: 3 },
  { gatewayName: 'pgtwo', methodCode: 'CREDIT_CARD', name: 'Credit or debit card', type: 'CARD', feeFlat: '2000.00', feePercent: '2.90', sortOrder: 4 },
];

export function seedPaymentMethods(db: Database, repo: BillingRepository): Promise<void> {
  return repo.seedPaymentMethods(db, DEFAULT_PAYMENT_METHODS);
}

export { WalletService, BalanceLogType, type Balances, type CreditInput, type DebitInput, type LedgerResult, type BalanceLogTypeName, type BalanceListener } from './wallet.service.js';
export { WalletRepository, type LedgerRow } from './wallet.repository.js';
export { ledgerEntryView } from './wallet.present.js';
export { WalletAdjustmentsService, type AuditRecorder, type AdjustmentAnswer, type StaffCreditListener } from './wallet-adjustments.service.js';
export { walletAdminRoutes } from './wallet.admin-routes.js';
export { WalletReconciliationService } from './wallet-reconciliation.service.js';
export { createWalletModule } from './wallet.module.js';

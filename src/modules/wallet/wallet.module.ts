import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { WalletAdjustmentsService, type AuditRecorder, type StaffCreditListener } from './wallet-adjustments.service.js';
import { WalletReconciliationService } from './wallet-reconciliation.service.js';
import { walletAdminRoutes } from './wallet.admin-routes.js';
import { WalletRepository } from './wallet.repository.js';
import { WalletService, type BalanceListener } from './wallet.service.js';

export interface WalletDeps {
  /** told of every balance change (the low-balance warning of the notifications module) */
  balances: BalanceListener;
  audit: AuditRecorder;
  /** told of every staff ADD (src/flows/staff-credit.ts) */
  staffCredited: StaffCreditListener;
}

/** The wallet ledger, staff adjustments and the nightly reconciliation of balances against the ledger. */
export function createWalletModule(p: Platform, deps: WalletDeps) {
  const { db, clock, log, config } = p;
  const wallet = new WalletService(db, new WalletRepository(), deps.balances);
  const walletAdjustments = new WalletAdjustmentsService(db, wallet, p.idempotency, deps.audit, { mailer: p.mailer, currency: config.currency }, deps.staffCredited);
  const walletReconciliation = new WalletReconciliationService(db, new WalletRepository(), clock, log);
  return {
    services: { wallet, walletAdjustments, walletReconciliation },
    jobs: [walletReconciliation.reconcileJob],
    gauges: [
      {
        name: 'wallet_ledger_drift_wallets',
        help: 'Wallets whose balances differed from the sums of their ledger at the last reconciliation (wallet.reconcile)',
        read: () => walletReconciliation.driftCount(),
      },
    ],
    routes: [mount('backoffice', walletAdminRoutes, { wallet, adjustments: walletAdjustments, reconciliation: walletReconciliation })],
  } satisfies BuiltModule;
}

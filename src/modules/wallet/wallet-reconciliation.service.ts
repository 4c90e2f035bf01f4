import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { DriftRow, WalletRepository } from './wallet.repository.js';

/** Wallets named in the log per run (the backoffice list has them all). */
const LOGGED_PER_RUN = 50;

/**
 * Reconciliation: every wallet's balances must equal the sums of its ledger (actual_balance =
 * Σ actual_amount, current_balance = Σ amount). The job compares them all in one statement (one
 * snapshot, so a credit in flight is never half seen), keeps what it found in `wallet_drifts`
 * (replaced by each run), logs each drift as an error, and the `wallet_ledger_drift_wallets`
 * gauge and GET /api/backoffice/billing/wallet-drift report it.
 */
export class WalletReconciliationService {
  readonly reconcileJob = defineJob<object>({
    name: 'wallet.reconcile',
    schedule: '7 * * * *',
    description: 'Compares every wallet with the sums of its ledger and reports the wallets that drifted (log, metric, backoffice list)',
    handler: async (_p, ctx) => {
      const found = await this.reconcile();
      if (found > 0) ctx.log.error({ wallets: found }, 'wallets differ from their ledger: see GET /api/backoffice/billing/wallet-drift');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: WalletRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** One run: returns how many wallets differ from their ledger. */
  async reconcile(): Promise<number> {
    const now = this.clock.now();
    const drifts = await this.db.transaction(async (tx) => {
      const found = await this.repo.findDrifts(tx);
      await this.repo.replaceDrifts(tx, found, now);
      return found;
    });
    for (const d of drifts.slice(0, LOGGED_PER_RUN)) {
      this.log.error(
        { customerId: d.customerId, actualBalance: d.actualBalance, ledgerActual: d.ledgerActual, currentBalance: d.currentBalance, ledgerCurrent: d.ledgerCurrent },
        'wallet differs from its ledger',
      );
    }
    return drifts.length;
  }

  /** For the metric: wallets that differed at the last run. */
  driftCount(): Promise<number> {
    return this.repo.countDrifts(this.db);
  }

  list(p: PageRequest): Promise<Page<DriftRow>> {
    return this.repo.listDrifts(this.db, p);
  }
}

import type { Database } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { JobDefinition, JobQueue } from '../../platform/queue/queue.js';
import type { BillingRepository, TopupCreditFailureWithInvoice } from './billing.repository.js';

/**
 * Credit-failure administration: paid top-ups whose credit failed (recorded by the credit task,
 * see TopupCreditingService), for the metric and for staff, who retry one once its cause is fixed.
 */
export class TopupCreditFailuresService {
  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly queue: JobQueue,
    /** the credit task a retry queues */
    private readonly creditJob: JobDefinition<{ invoiceId: string }>,
  ) {}

  /** For the metric: paid top-ups whose credit failed and is not resolved. */
  openCreditFailures(): Promise<number> {
    return this.repo.countOpenCreditFailures(this.db);
  }

  /** Staff: the open credit failures (or the resolved ones), newest first. */
  listCreditFailures(filter: { resolved: boolean }, p: PageRequest): Promise<Page<TopupCreditFailureWithInvoice>> {
    return this.repo.listCreditFailures(this.db, filter, p);
  }

  /** Staff, once the cause is fixed: the failure is retried now (and again by the sweep). */
  async retryCreditFailure(invoiceId: string): Promise<{ invoice_id: string; queued: boolean }> {
    const reopened = await this.db.transaction(async (tx) => {
      const row = await this.repo.reopenCreditFailure(tx, invoiceId);
      if (row) await this.queue.send(this.creditJob, { invoiceId }, { tx });
      return row;
    });
    if (!reopened) throw new NotFoundError('Open credit failure');
    return { invoice_id: invoiceId, queued: true };
  }
}

import { AsyncResource } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { receiptMail } from '../../platform/mail/templates.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { dec, moneyString } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import { paymentMethodLabel } from './gateway-labels.js';
import { sqlStateOf } from '../../platform/db/errors.js';
import { defineSweepJob, lostBefore, settleFailure } from '../../platform/durable/index.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import { BalanceLogType, type WalletService } from '../wallet/index.js';
import type { BillingRepository, TopupInvoiceRow } from './billing.repository.js';
import type { BonusStatus } from './billing.tables.js';
import type { CouponsService } from './coupons.service.js';
import { CREDIT_TASK_RETRIES, TOPUP_CREDIT } from './topup-crediting.policy.js';

export const TOPUP_REFERENCE = 'topup_invoice';
/** Failed credit runs after which a failure waits for staff instead of being retried (10 retries of the task, then the sweep's). */
export const CREDIT_MAX_ATTEMPTS = TOPUP_CREDIT.maxAttempts;

/** The driver's own words (drizzle wraps them in "Failed query: <the SQL>"). */
function innermostMessage(err: unknown): string {
  let message = String((err as Error)?.message ?? err);
  for (let e = (err as { cause?: unknown })?.cause, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof (e as Error).message === 'string') message = (e as Error).message;
  }
  return message;
}

/** A business rule refused the credit (retrying cannot help): an AppError, or a check constraint. */
function isPermanentCreditError(err: unknown): boolean {
  if (err instanceof AppError) return !(err.status === 409 || err.status === 503);
  return sqlStateOf(err) === '23514' || sqlStateOf(err) === '22003';
}

export interface CreditedTopup {
  customerId: number;
  invoiceId: string;
  amount: string;
}

/**
 * Told about every credited top-up, inside the crediting transaction (rewards, postpaid settlement,
 * resume). A batch of invoices is told at once, in the order they were credited, after all of them
 * are in the ledger (a customer may have several in one batch); one invoice is the batch of one.
 */
export interface TopupCreditListener {
  topupsCredited(tx: Executor, topups: CreditedTopup[]): Promise<void>;
}

/** In-app notifications (the notifications module): one statement for a batch of events. */
export interface TopupNotifier {
  notifyMany(
    items: { customerId: number; kind: 'TOPUP_CREDITED'; title: string; body: string; reference: { type: string; id: string } }[],
    tx: Executor,
  ): Promise<unknown>;
}

/** How many TopupCallbackSuccessTask jobs one worker fetches and credits in one transaction. */
export const CREDIT_BATCH_SIZE = 50;

/**
 * How long the credit task a paid callback writes waits before a worker may take it: the callback's
 * process credits the invoice itself at once (creditOnPayment) and completes the task in that
 * transaction; the task is there for a process that died in between.
 */
export const CREDIT_TASK_DELAY_SECONDS = 30;

/** How long a credit made on its callback waits for a lock (an invoice, a wallet) before leaving the credit to the task. */
const ON_PAYMENT_LOCK_TIMEOUT_MS = 2000;

/** A callback waiting for its invoice to be credited. */
interface WaitingCredit {
  invoiceId: string;
  jobId: string | null;
  done(): void;
}

/**
 * Crediting a paid top-up: TopupCallbackSuccessTask (in batches) credits the wallet exactly once,
 * with the coupon bonus, the receipt mail, the in-app notice and the listeners told in the same
 * transaction; a failed run is recorded for staff (see TopupCreditFailuresService); the sweep
 * queues the task again for a Paid invoice left uncredited.
 */
export class TopupCreditingService {
  /** Credits a paid top-up: queue billing-high (spec, Events). */
  readonly creditJob = defineJob<{ invoiceId: string }>({
    name: 'TopupCallbackSuccessTask',
    queue: 'billing-high',
    description: 'Credits the wallet for a paid top-up invoice (and its coupon bonus), exactly once',
    retryLimit: CREDIT_TASK_RETRIES,
    // A worker credits up to CREDIT_BATCH_SIZE invoices in one transaction; two workers lock their
    // invoices and wallets in the same order, so they only wait on each other, never deadlock.
    concurrency: 2,
    record: 'failures',
    handler: ({ invoiceId }, ctx) => this.runCredit(invoiceId, ctx.log),
    batch: { size: CREDIT_BATCH_SIZE, handler: (payloads, ctx) => this.runCredits(payloads.map((p) => p.invoiceId), ctx.log) },
  });

  /**
   * The sweep's credit runs, on a queue of their own whose 'short' policy keeps at most one
   * waiting job per invoice (pg-boss refuses the duplicate), however often the sweep runs.
   */
  readonly recreditInvoiceJob = defineJob<{ invoiceId: string }>({
    name: 'billing.recredit-invoice',
    queue: 'billing-recredit',
    policy: 'short',
    description: 'Credits a paid top-up the sweep found uncredited (as TopupCallbackSuccessTask)',
    retryLimit: 2,
    record: 'failures',
    handler: ({ invoiceId }, ctx) => this.runCredit(invoiceId, ctx.log),
  });

  /** The safety net under exactly-once: a Paid invoice is credited even if its task was lost. */
  readonly recreditJob = defineSweepJob(TOPUP_CREDIT, {
    name: 'billing.recredit-paid',
    description: `Queues TopupCallbackSuccessTask again for Paid top-ups still not credited ${TOPUP_CREDIT.lostAfterMs / 60_000} minutes after payment`,
    run: async () => ({ requeued: await this.requeueUncredited(), open: await this.repo.countOpenCreditFailures(this.db) }),
    report: ({ requeued, open }, log) => {
      if (requeued > 0) log.error({ requeued }, 'paid top-ups were not credited: their credit task was queued again');
      if (open > 0) log.error({ open }, 'paid top-ups wait for staff: see GET /api/backoffice/billing/credit-failures');
    },
  });

  private waiting: WaitingCredit[] = [];
  private crediting = false;
  /** The async context the credits on payment run in: this service's, never a request's. */
  private readonly home = new AsyncResource('topup-crediting');

  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly wallet: WalletService,
    private readonly coupons: CouponsService,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** tells each customer in the app that a top-up was credited, beside the receipt mail */
    private readonly notifier: TopupNotifier,
    /**
     * Told once per credited batch, in its transaction (src/flows/topup-credited.ts). A required
     * listener (postpaid settlement, resume after suspension) fails the credit, which is retried; a
     * best-effort one (rewards) runs in a savepoint and its failure is logged.
     */
    private readonly creditListeners: readonly { listener: TopupCreditListener; bestEffort: boolean }[],
  ) {}

  /**
   * Credits an invoice its callback has just marked Paid, in the callback's own process, before the
   * callback answers: the customer sees the money as soon as the gateway has its 200. The process
   * runs one such credit at a time; the invoices paid meanwhile are credited together in the next
   * one (up to CREDIT_BATCH_SIZE), as the credit task's batches are, with their tasks (`jobId`, still
   * waiting out CREDIT_TASK_DELAY_SECONDS) completed in the same transaction. Exactly once as ever:
   * the invoice's row lock and the ledger's key. If that credit fails, or waits more than
   * ON_PAYMENT_LOCK_TIMEOUT_MS for a lock, its tasks are made due at once, and the worker credits
   * the invoices one by one, recording failures for staff. Never throws.
   */
  creditOnPayment(invoiceId: string, jobId: string | null): Promise<void> {
    return new Promise((done) => {
      this.waiting.push({ invoiceId, jobId, done });
      if (!this.crediting) void this.home.runInAsyncScope(() => this.creditWaiting());
    });
  }

  private async creditWaiting(): Promise<void> {
    this.crediting = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, CREDIT_BATCH_SIZE);
        const jobIds = batch.flatMap((w) => (w.jobId ? [w.jobId] : []));
        try {
          await this.creditPaidInvoices(
            batch.map((w) => w.invoiceId),
            { completeJobs: jobIds, lockTimeoutMs: ON_PAYMENT_LOCK_TIMEOUT_MS },
          );
        } catch (err) {
          this.log.warn({ err, invoices: batch.length }, 'paid top-ups not credited on their callback: left to the credit task');
          await this.queue.expedite(this.creditJob, jobIds).catch((e: unknown) => this.log.error({ err: e }, 'credit tasks not made due: they run after their delay'));
        }
        for (const w of batch) w.done();
      }
    } finally {
      this.crediting = false;
    }
  }

  /** TopupCallbackSuccessTask for one invoice: the batch of one. True when it was credited now. */
  async creditPaidInvoice(invoiceId: string): Promise<boolean> {
    return (await this.creditPaidInvoices([invoiceId])).get(invoiceId) ?? false;
  }

  /**
   * TopupCallbackSuccessTask for a batch of invoices, in one transaction: the invoices are locked
   * (in id order), those Paid and not yet credited get their BalanceLogAdd entries keyed by the
   * invoice under the wallet locks (in customer order; a replay finds its entry and does nothing),
   * each coupon is redeemed and its bonus credited as its own entry, the invoices are marked
   * credited with what was credited, their open credit failures resolved, the listeners told, and
   * the receipt mails and the TOPUP_CREDITED notifications written. A statement per step for the whole batch, not per invoice. An
   * invoice whose ledger entry already exists (credited by an earlier run that could not mark it)
   * is marked credited without a second entry. Returns, per invoice id, whether it was credited now.
   * `completeJobs`: credit tasks to complete in the same transaction (see creditOnPayment);
   * `lockTimeoutMs`: how long a statement of it may wait for a lock before it fails.
   */
  async creditPaidInvoices(invoiceIds: string[], opts: { completeJobs?: readonly string[]; lockTimeoutMs?: number } = {}): Promise<Map<string, boolean>> {
    const credited = new Map(invoiceIds.map((id) => [id, false]));
    return this.db.transaction(async (tx) => {
      if (opts.lockTimeoutMs !== undefined) await tx.execute(sql.raw(`set local lock_timeout = ${Math.trunc(opts.lockTimeoutMs)}`));
      if (opts.completeJobs) await this.queue.completeWaiting(tx, this.creditJob, opts.completeJobs);
      const locked = await this.repo.lockInvoices(tx, invoiceIds);
      const lockedIds = new Set(locked.map((i) => i.id));
      for (const id of credited.keys()) if (!lockedIds.has(id)) this.log.warn({ invoiceId: id }, 'credit task for an unknown invoice: skipped');
      const invoices = locked
        .filter((invoice) => {
          if (invoice.status === 'Paid') return invoice.creditedAt === null;
          this.log.warn({ invoiceId: invoice.id, status: invoice.status }, 'credit task for an invoice that is not Paid: skipped');
          return false;
        })
        // the ledger in the order of payment (a customer's first top-up is the first paid)
        .sort((a, b) => (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) || a.id.localeCompare(b.id));
      if (invoices.length === 0) return credited;
      const credits = await this.wallet.creditMany(
        tx,
        invoices.map((invoice) => ({
          customerId: invoice.customerId,
          type: BalanceLogType.Add,
          amount: invoice.amount,
          part: 'actual' as const,
          referenceType: TOPUP_REFERENCE,
          referenceId: invoice.id,
          description: `Top-up via ${invoice.gatewayName} ${invoice.methodName}`,
        })),
      );
      const bonuses: { creditedBonus: string; bonusStatus: BonusStatus }[] = [];
      for (const invoice of invoices) bonuses.push(await this.creditBonus(tx, invoice));
      const now = this.clock.now();
      await this.repo.markCreditedMany(tx, invoices.map((invoice, i) => ({ id: invoice.id, ...bonuses[i]! })), now);
      await this.repo.resolveCreditFailures(tx, invoices.map((invoice) => invoice.id), now);
      await this.tellCredited(tx, invoices);
      const fresh = invoices.flatMap((invoice, i) => {
        if (credits[i]!.applied) return [{ invoice, bonus: bonuses[i]! }];
        this.log.warn({ invoiceId: invoice.id }, 'top-up already in the ledger but not marked credited: marked now');
        return [];
      });
      const contacts = await this.repo.customerContacts(tx, fresh.map(({ invoice }) => invoice.customerId));
      const mails = fresh.flatMap(({ invoice, bonus }) => {
        const contact = contacts.get(invoice.customerId);
        return contact ? [{ to: contact.email, mail: this.receipt(invoice, bonus, now) }] : [];
      });
      await this.mailer.queueMails(mails, tx);
      await this.notifier.notifyMany(
        fresh.map(({ invoice, bonus }) => ({
          customerId: invoice.customerId,
          kind: 'TOPUP_CREDITED' as const,
          title: 'Top-up credited',
          body: `${displayMoney(invoice.amount, invoice.currency)} from your top-up by ${paymentMethodLabel(invoice.gatewayName, invoice.methodName)} is in your wallet${
            bonus.bonusStatus === 'credited' && dec(bonus.creditedBonus).gt(0) ? `, with ${displayMoney(bonus.creditedBonus, invoice.currency)} bonus credit (coupon ${invoice.couponCode})` : ''
          }. Its receipt is under Billing, in your top-ups.`,
          reference: { type: TOPUP_REFERENCE, id: invoice.id },
        })),
        tx,
      );
      for (const { invoice } of fresh) credited.set(invoice.id, true);
      return credited;
    });
  }

  private receipt(invoice: TopupInvoiceRow, bonus: { creditedBonus: string; bonusStatus: BonusStatus }, now: Date) {
    return receiptMail({
      reference: invoice.id,
      description: `Wallet top-up by ${paymentMethodLabel(invoice.gatewayName, invoice.methodName)}`,
      amount: moneyString(invoice.totalAmount),
      currency: invoice.currency,
      paidAt: invoice.paidAt ?? now,
      note: [
        `Credited to your wallet: ${invoice.currency} ${moneyString(invoice.amount)}`,
        bonus.bonusStatus === 'credited' && dec(bonus.creditedBonus).gt(0) ? `coupon ${invoice.couponCode} bonus: ${invoice.currency} ${bonus.creditedBonus}` : undefined,
        bonus.bonusStatus === 'forfeited' ? `coupon ${invoice.couponCode}: no bonus (the coupon was used up after this top-up expired)` : undefined,
      ]
        .filter(Boolean)
        .join('; '),
    });
  }

  /**
   * The listeners, told about the batch at once. A best-effort one (rewards) runs in a savepoint;
   * if it fails for the batch, it is told again customer by customer, so one customer's failure
   * (logged) does not cost the others theirs.
   */
  private async tellCredited(tx: Executor, invoices: { id: string; customerId: number; amount: string }[]): Promise<void> {
    const topups: CreditedTopup[] = invoices.map((invoice) => ({ customerId: invoice.customerId, invoiceId: invoice.id, amount: invoice.amount }));
    for (const { listener, bestEffort } of this.creditListeners) {
      if (!bestEffort) {
        await listener.topupsCredited(tx, topups);
        continue;
      }
      const groups = [topups];
      try {
        await tx.transaction(async (sp) => listener.topupsCredited(sp, topups));
        continue;
      } catch (err) {
        const byCustomer = new Map<number, CreditedTopup[]>();
        for (const t of topups) byCustomer.set(t.customerId, [...(byCustomer.get(t.customerId) ?? []), t]);
        if (byCustomer.size === 1) {
          this.log.error({ err, invoiceIds: topups.map((t) => t.invoiceId) }, 'top-up credited, but a best-effort listener (a reward) failed');
          continue;
        }
        groups.splice(0, 1, ...byCustomer.values());
      }
      for (const group of groups) {
        try {
          await tx.transaction(async (sp) => listener.topupsCredited(sp, group));
        } catch (err) {
          this.log.error({ err, invoiceIds: group.map((t) => t.invoiceId) }, 'top-up credited, but a best-effort listener (a reward) failed');
        }
      }
    }
  }

  /**
   * The bonus of a paid invoice: a use reserved at deposit time is redeemed; a use released (the
   * invoice failed or expired, then was paid after all) is taken again if the coupon has one
   * left, else the bonus is forfeited. The ledger key makes a replay a no-op.
   */
  private async creditBonus(tx: Executor, invoice: TopupInvoiceRow): Promise<{ creditedBonus: string; bonusStatus: BonusStatus }> {
    if (invoice.couponId === null) return { creditedBonus: '0.00', bonusStatus: 'none' };
    const useReserved = invoice.bonusStatus === 'reserved';
    if (!(await this.coupons.redeem(tx, invoice.couponId, invoice.id, invoice.customerId, invoice.bonusAmount, useReserved))) {
      this.log.warn({ invoiceId: invoice.id, coupon: invoice.couponCode }, 'paid after its coupon use was released and the coupon is used up: no bonus');
      return { creditedBonus: '0.00', bonusStatus: 'forfeited' };
    }
    if (dec(invoice.bonusAmount).gt(0)) {
      await this.wallet.credit(tx, {
        customerId: invoice.customerId,
        type: BalanceLogType.Bonus,
        amount: invoice.bonusAmount,
        part: 'bonus',
        referenceType: TOPUP_REFERENCE,
        referenceId: invoice.id,
        description: `Coupon ${invoice.couponCode} bonus`,
      });
    }
    return { creditedBonus: moneyString(invoice.bonusAmount), bonusStatus: 'credited' };
  }

  /**
   * A batch of the credit task (the billing-high worker's fetch): credited in one transaction. If
   * that fails, its invoices are credited again one by one, so one bad invoice neither blocks nor
   * fails the others: each failure is recorded and retried on its own. Per invoice, undefined or
   * the error that fails its job.
   */
  private async runCredits(invoiceIds: string[], log: Logger): Promise<unknown[]> {
    try {
      await this.creditPaidInvoices(invoiceIds);
      return invoiceIds.map(() => undefined);
    } catch (err) {
      log.warn({ err, invoices: invoiceIds.length }, 'a batch of top-up credits failed: crediting its invoices one by one');
      const errors: unknown[] = [];
      for (const invoiceId of invoiceIds) {
        try {
          await this.runCredit(invoiceId, log);
          errors.push(undefined);
        } catch (e) {
          errors.push(e ?? new Error('credit failed'));
        }
      }
      return errors;
    }
  }

  /**
   * One run of the credit task. A failure is recorded for staff (its own transaction, the run's
   * rolled back): a business rule refusing the credit (an AppError, a check constraint) is
   * permanent at once and is not retried; anything else is retried by pg-boss and the sweep until
   * the policy's maxAttempts runs failed, then waits for staff too (TOPUP_CREDIT's give-up).
   */
  private async runCredit(invoiceId: string, log: Logger): Promise<void> {
    try {
      await this.creditPaidInvoice(invoiceId);
    } catch (err) {
      const permanent = isPermanentCreditError(err);
      const invoice = await this.repo.findInvoice(this.db, invoiceId).catch(() => undefined);
      if (invoice) {
        const failure = await this.repo
          .recordCreditFailure(
            this.db,
            {
              invoiceId,
              customerId: invoice.customerId,
              permanent,
              errorCode: err instanceof AppError ? err.code : (sqlStateOf(err) ?? 'INTERNAL'),
              lastError: innermostMessage(err).slice(0, 1000),
              at: this.clock.now(),
            },
            TOPUP_CREDIT.maxAttempts,
          )
          .catch((recordErr: unknown) => {
            log.error({ err: recordErr, invoiceId }, 'could not record a credit failure');
            return undefined;
          });
        // the repository flags the failure permanent by the same rule, in the statement that counts it
        const gaveUp =
          failure &&
          settleFailure(TOPUP_CREDIT, { attempts: failure.attempts, at: failure.lastFailedAt, final: failure.permanent }, {
            retry: () => false,
            giveUp: () => {
              log.error({ err, invoiceId, attempts: failure.attempts }, 'a paid top-up could not be credited: flagged for staff, not retried');
              return true;
            },
          });
        if (gaveUp) return;
      }
      throw err;
    }
  }

  /** Queues the credit task again for Paid invoices left uncredited; the task itself is idempotent. */
  async requeueUncredited(): Promise<number> {
    const paidBefore = lostBefore(TOPUP_CREDIT, this.clock.now());
    const ids = await this.repo.listUncredited(this.db, paidBefore, 500);
    let queued = 0;
    for (const invoiceId of ids) if ((await this.queue.send(this.recreditInvoiceJob, { invoiceId }, { singletonKey: invoiceId })) !== null) queued++;
    return queued;
  }
}

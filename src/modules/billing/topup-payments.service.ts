import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, InvalidSignatureError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { receiptMail } from '../../platform/mail/templates.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { dec, moneyJson, moneyString } from '../../platform/money.js';
import { sqlStateOf } from '../../platform/db/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { GatewayName, InboundCallback, PaymentGateways, VerifiedCallback } from '../../integrations/payment-gateways/index.js';
import { BalanceLogType, type WalletService } from '../wallet/index.js';
import type { BillingRepository, CallbackFilter, TopupInvoiceRow } from './billing.repository.js';
import type { BonusStatus, CallbackOutcome } from './billing.tables.js';
import { capCallbackBody } from './callback-retention.js';
import type { CouponsService } from './coupons.service.js';

export const TOPUP_REFERENCE = 'topup_invoice';
/** A Paid invoice still uncredited this long after payment gets its credit task again. */
const RECREDIT_AFTER_MINUTES = 10;
/** Failed credit runs after which a failure waits for staff instead of being retried (10 retries of the task, then the sweep's). */
export const CREDIT_MAX_ATTEMPTS = 20;

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


function outcomeOf(err: unknown): CallbackOutcome {
  if (err instanceof InvalidSignatureError) return 'invalid_signature';
  if (err instanceof NotFoundError) return 'unknown_invoice';
  if (err instanceof ValidationError) return 'invalid';
  if (err instanceof AppError && err.code === 'AMOUNT_MISMATCH') return 'amount_mismatch';
  if (err instanceof AppError && err.code === 'GATEWAY_MISMATCH') return 'gateway_mismatch';
  if (err instanceof AppError && err.code === 'PAYMENT_NOT_CONFIRMED') return 'unconfirmed';
  return 'error';
}

const RECORDED_HEADERS = ['content-type', 'user-agent', 'x-callback-signature', 'x-forwarded-for', 'x-request-id'];

/**
 * Gateway callbacks and what follows a payment: the verified callback moves the invoice
 * (Pending → Paid/Failed/Expired) and, for a success, queues TopupCallbackSuccessTask in the same
 * transaction; the task credits the wallet exactly once (DECISIONS 4).
 */
export class TopupPaymentsService {
  /** Credits a paid top-up: queue billing-high (spec, Events). */
  readonly creditJob = defineJob<{ invoiceId: string }>({
    name: 'TopupCallbackSuccessTask',
    queue: 'billing-high',
    description: 'Credits the wallet for a paid top-up invoice (and its coupon bonus), exactly once',
    retryLimit: 10,
    // Crediting locks one invoice and one wallet row: parallel workers only wait on the same customer.
    concurrency: 4,
    record: 'failures',
    handler: ({ invoiceId }, ctx) => this.runCredit(invoiceId, ctx.log),
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

  readonly expireJob = defineJob<object>({
    name: 'billing.expire-topups',
    schedule: '*/10 * * * *',
    description: 'Marks Pending top-up invoices older than TOPUP_EXPIRY_HOURS as Expired',
    handler: async (_p, ctx) => {
      const n = await this.expireDue();
      if (n > 0) ctx.log.info({ expired: n }, 'top-up invoices expired');
    },
  });

  /** The safety net under exactly-once: a Paid invoice is credited even if its task was lost. */
  readonly recreditJob = defineJob<object>({
    name: 'billing.recredit-paid',
    schedule: '*/15 * * * *',
    description: `Queues TopupCallbackSuccessTask again for Paid top-ups still not credited ${RECREDIT_AFTER_MINUTES} minutes after payment`,
    handler: async (_p, ctx) => {
      const n = await this.requeueUncredited();
      if (n > 0) ctx.log.error({ requeued: n }, 'paid top-ups were not credited: their credit task was queued again');
      const open = await this.repo.countOpenCreditFailures(this.db);
      if (open > 0) ctx.log.error({ open }, 'paid top-ups wait for staff: see GET /api/backoffice/billing/credit-failures');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly wallet: WalletService,
    private readonly coupons: CouponsService,
    private readonly gateways: PaymentGateways,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /**
   * Handles one callback and records it (verified or not) for reconciliation. Returns normally
   * for every handled callback, repeats included (200); throws 400/401/404 otherwise.
   */
  async handleCallback(gatewayName: GatewayName, cb: InboundCallback, remoteIp: string | undefined): Promise<CallbackOutcome> {
    const gateway = this.gateways.get(gatewayName)!;
    let outcome: CallbackOutcome = 'error';
    let status = 200;
    let verified = false;
    try {
      const callback = gateway.verifyCallback(cb);
      verified = true;
      outcome = await this.apply(gatewayName, callback);
      return outcome;
    } catch (err) {
      outcome = outcomeOf(err);
      status = err instanceof AppError ? err.status : 500;
      throw err;
    } finally {
      const headers = Object.fromEntries(
        RECORDED_HEADERS.filter((h) => cb.headers[h] !== undefined).map((h) => [h, String(cb.headers[h]).slice(0, 500)]),
      );
      await this.repo
        .recordCallback(this.db, {
          gatewayName,
          claimedInvoiceId: gateway.claimedInvoiceId(cb),
          rawBody: capCallbackBody(cb.rawBody, verified),
          headers,
          remoteIp: remoteIp ?? null,
          signatureValid: verified,
          outcome,
          responseStatus: status,
        })
        .catch((err: unknown) => this.log.error({ err, gatewayName }, 'could not record a payment callback'));
    }
  }

  /** The reconciliation trail: every callback received, newest first. */
  async listCallbacks(filter: CallbackFilter, p: PageRequest) {
    const page = await this.repo.listCallbacks(this.db, filter, p);
    return {
      total: page.total,
      items: page.items.map((c) => ({
        id: c.id,
        gateway: c.gatewayName,
        claimed_invoice_id: c.claimedInvoiceId,
        signature_valid: c.signatureValid,
        outcome: c.outcome,
        response_status: c.responseStatus,
        remote_ip: c.remoteIp,
        headers: c.headers,
        raw_body: c.rawBody,
        received_at: c.receivedAt.toISOString(),
      })),
    };
  }

  private async apply(gatewayName: GatewayName, cb: VerifiedCallback): Promise<CallbackOutcome> {
    const invoice = await this.repo.findInvoice(this.db, cb.invoiceId);
    if (!invoice) throw new NotFoundError('Invoice');
    if (invoice.gatewayName !== gatewayName) {
      this.log.warn({ invoiceId: invoice.id, gatewayName, expected: invoice.gatewayName }, 'callback from the wrong gateway');
      throw new BadRequestError('GATEWAY_MISMATCH', 'This invoice was not created with this gateway');
    }
    if (!dec(cb.amount).eq(invoice.totalAmount)) {
      this.log.warn({ invoiceId: invoice.id, gatewayName, received: cb.amount, expected: invoice.totalAmount }, 'callback amount differs from the invoice');
      throw new BadRequestError('AMOUNT_MISMATCH', 'The amount does not match the invoice');
    }
    const now = this.clock.now();
    switch (cb.result) {
      case 'success': {
        if (invoice.status === 'Paid') return 'duplicate';
        if (!(await this.gateways.get(gatewayName)!.confirmPaid({ invoiceId: invoice.id, totalAmount: invoice.totalAmount }))) {
          this.log.error({ invoiceId: invoice.id, gatewayName }, 'success callback not confirmed by the gateway: not credited');
          throw new BadRequestError('PAYMENT_NOT_CONFIRMED', 'The gateway does not confirm this payment');
        }
        // Nothing inside this transaction may use another connection (the pool is shared by the
        // concurrent callbacks waiting on this row).
        const paid = await this.db.transaction(async (tx) => {
          const row = await this.repo.markPaid(tx, invoice.id, now);
          if (row) await this.queue.send(this.creditJob, { invoiceId: invoice.id }, { tx });
          return row !== undefined;
        });
        return paid ? 'paid' : this.settled(invoice.id, 'success');
      }
      case 'failed': {
        const moved = await this.db.transaction(async (tx) => this.released(tx, await this.repo.markFailed(tx, invoice.id, now)));
        return moved ? 'failed' : this.settled(invoice.id, 'failed');
      }
      case 'expired': {
        const moved = await this.db.transaction(async (tx) => this.released(tx, await this.repo.markExpired(tx, invoice.id, now)));
        return moved ? 'expired' : this.settled(invoice.id, 'expired');
      }
      default:
        this.log.warn({ invoiceId: invoice.id, gatewayName, result: cb.rawResult }, 'callback with an unknown result code: ignored');
        return 'ignored';
    }
  }

  /** An invoice that just failed or expired gives its coupon use back; true when it moved. */
  private async released(tx: Executor, row: Pick<TopupInvoiceRow, 'couponId' | 'bonusStatus'> | undefined): Promise<boolean> {
    if (!row) return false;
    if (row.couponId !== null && row.bonusStatus === 'released') await this.coupons.release(tx, row.couponId);
    return true;
  }

  /** A callback for an invoice that already left Pending: a repeat (200, nothing changes). */
  private async settled(invoiceId: string, result: string): Promise<CallbackOutcome> {
    const current = await this.repo.findInvoice(this.db, invoiceId);
    const same = (result === 'success' && current?.status === 'Paid') || (result === 'failed' && current?.status === 'Failed') || (result === 'expired' && current?.status === 'Expired');
    return same ? 'duplicate' : 'ignored';
  }

  /**
   * TopupCallbackSuccessTask: under the invoice and wallet row locks, writes BalanceLogAdd keyed
   * by the invoice (a replay finds it and does nothing), redeems the coupon and credits its bonus
   * as its own entry, marks the invoice credited with what was credited, and queues the receipt
   * mail, all in one transaction. An invoice whose ledger entry already exists (credited by an
   * earlier run that could not mark it) is marked credited without a second entry.
   */
  async creditPaidInvoice(invoiceId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const invoice = await this.repo.findInvoice(tx, invoiceId, undefined, true);
      if (!invoice || invoice.status !== 'Paid') {
        this.log.warn({ invoiceId, status: invoice?.status }, 'credit task for an invoice that is not Paid: skipped');
        return false;
      }
      if (invoice.creditedAt) return false;
      const credit = await this.wallet.credit(tx, {
        customerId: invoice.customerId,
        type: BalanceLogType.Add,
        amount: invoice.amount,
        part: 'actual',
        referenceType: TOPUP_REFERENCE,
        referenceId: invoice.id,
        description: `Top-up via ${invoice.gatewayName} ${invoice.methodName}`,
      });
      const bonus = await this.creditBonus(tx, invoice);
      const now = this.clock.now();
      await this.repo.markCredited(tx, invoice.id, now, bonus);
      await this.repo.resolveCreditFailure(tx, invoice.id, now);
      if (!credit.applied) {
        this.log.warn({ invoiceId }, 'top-up already in the ledger but not marked credited: marked now');
        return false;
      }
      const contact = await this.repo.customerContact(tx, invoice.customerId);
      if (contact) {
        const mail = receiptMail({
          reference: invoice.id,
          description: `Wallet top-up via ${invoice.gatewayName} ${invoice.methodName}`,
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
        await this.mailer.queueMail(contact.email, mail, tx);
      }
      return true;
    });
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
   * One run of the credit task. A failure is recorded for staff (its own transaction, the run's
   * rolled back): a business rule refusing the credit (an AppError, a check constraint) is
   * permanent at once and is not retried; anything else is retried by pg-boss and the sweep until
   * CREDIT_MAX_ATTEMPTS runs failed, then waits for staff too.
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
            CREDIT_MAX_ATTEMPTS,
          )
          .catch((recordErr: unknown) => {
            log.error({ err: recordErr, invoiceId }, 'could not record a credit failure');
            return undefined;
          });
        if (failure?.permanent) {
          log.error({ err, invoiceId, attempts: failure.attempts }, 'a paid top-up could not be credited: flagged for staff, not retried');
          return;
        }
      }
      throw err;
    }
  }

  /** For the metric: paid top-ups whose credit failed and is not resolved. */
  openCreditFailures(): Promise<number> {
    return this.repo.countOpenCreditFailures(this.db);
  }

  /** Staff: the open credit failures (or the resolved ones), newest first. */
  async listCreditFailures(filter: { resolved: boolean }, p: PageRequest) {
    const page = await this.repo.listCreditFailures(this.db, filter, p);
    return {
      total: page.total,
      items: page.items.map(({ failure, invoice }) => ({
        invoice_id: failure.invoiceId,
        customer_id: failure.customerId,
        amount: moneyJson(invoice.amount),
        bonus_amount: moneyJson(invoice.bonusAmount),
        currency: invoice.currency,
        gateway_name: invoice.gatewayName,
        invoice_status: invoice.status as 'Pending' | 'Paid' | 'Failed' | 'Expired',
        paid_at: invoice.paidAt?.toISOString() ?? null,
        credited_at: invoice.creditedAt?.toISOString() ?? null,
        attempts: failure.attempts,
        permanent: failure.permanent,
        error_code: failure.errorCode,
        last_error: failure.lastError,
        first_failed_at: failure.firstFailedAt.toISOString(),
        last_failed_at: failure.lastFailedAt.toISOString(),
        resolved_at: failure.resolvedAt?.toISOString() ?? null,
      })),
    };
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

  /** Queues the credit task again for Paid invoices left uncredited; the task itself is idempotent. */
  async requeueUncredited(): Promise<number> {
    const paidBefore = new Date(this.clock.now().getTime() - RECREDIT_AFTER_MINUTES * 60_000);
    const ids = await this.repo.listUncredited(this.db, paidBefore, 500);
    let queued = 0;
    for (const invoiceId of ids) if ((await this.queue.send(this.recreditInvoiceJob, { invoiceId }, { singletonKey: invoiceId })) !== null) queued++;
    return queued;
  }

  /** Pending invoices past their expiry (TOPUP_EXPIRY_HOURS after creation) → Expired; their coupon uses are released. */
  expireDue(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const expired = await this.repo.expireDue(tx, this.clock.now());
      const released = new Map<number, number>();
      for (const row of expired) if (row.couponId !== null && row.bonusStatus === 'released') released.set(row.couponId, (released.get(row.couponId) ?? 0) + 1);
      for (const [couponId, uses] of released) await this.coupons.release(tx, couponId, uses);
      return expired.length;
    });
  }
}

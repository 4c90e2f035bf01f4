import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, InvalidSignatureError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { receiptMail } from '../../platform/mail/templates.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { dec, moneyString } from '../../platform/money.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { GatewayName, InboundCallback, PaymentGateways, VerifiedCallback } from '../../integrations/payment-gateways/index.js';
import { BalanceLogType, type WalletService } from '../wallet/index.js';
import type { BillingRepository, CallbackFilter, TopupInvoiceRow } from './billing.repository.js';
import type { CallbackOutcome } from './billing.tables.js';
import { capCallbackBody } from './callback-retention.js';
import type { CouponsService } from './coupons.service.js';

export const TOPUP_REFERENCE = 'topup_invoice';
/** A Paid invoice still uncredited this long after payment gets its credit task again. */
const RECREDIT_AFTER_MINUTES = 10;


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
    handler: ({ invoiceId }) => this.creditPaidInvoice(invoiceId).then(() => undefined),
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
    },
  });

  /** Runs in the crediting transaction once a top-up landed (charging: resume a suspended customer). */
  onCredited: (tx: Executor, customerId: number, invoiceId: string) => Promise<unknown> = async () => undefined;

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
      case 'failed':
        return (await this.repo.markFailed(this.db, invoice.id, now)) ? 'failed' : this.settled(invoice.id, 'failed');
      case 'expired':
        return (await this.repo.markExpired(this.db, invoice.id, now)) ? 'expired' : this.settled(invoice.id, 'expired');
      default:
        this.log.warn({ invoiceId: invoice.id, gatewayName, result: cb.rawResult }, 'callback with an unknown result code: ignored');
        return 'ignored';
    }
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
   * as its own entry, and queues the receipt mail, all in one transaction.
   */
  async creditPaidInvoice(invoiceId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const invoice = await this.repo.findInvoice(tx, invoiceId, undefined, true);
      if (!invoice || invoice.status !== 'Paid') {
        this.log.warn({ invoiceId, status: invoice?.status }, 'credit task for an invoice that is not Paid: skipped');
        return false;
      }
      const credit = await this.wallet.credit(tx, {
        customerId: invoice.customerId,
        type: BalanceLogType.Add,
        amount: invoice.amount,
        part: 'actual',
        referenceType: TOPUP_REFERENCE,
        referenceId: invoice.id,
        description: `Top-up via ${invoice.gatewayName} ${invoice.methodName}`,
      });
      if (!credit.applied) return false;
      const bonus = await this.creditBonus(tx, invoice);
      await this.onCredited(tx, invoice.customerId, invoice.id);
      await this.repo.markCredited(tx, invoice.id, this.clock.now());
      const contact = await this.repo.customerContact(tx, invoice.customerId);
      if (contact) {
        const mail = receiptMail({
          reference: invoice.id,
          description: `Wallet top-up via ${invoice.gatewayName} ${invoice.methodName}`,
          amount: moneyString(invoice.totalAmount),
          currency: invoice.currency,
          paidAt: invoice.paidAt ?? this.clock.now(),
          note: [
            `Credited to your wallet: ${invoice.currency} ${moneyString(invoice.amount)}`,
            bonus ? `coupon ${invoice.couponCode} bonus: ${invoice.currency} ${bonus}` : undefined,
          ]
            .filter(Boolean)
            .join('; '),
        });
        await this.mailer.queueMail(contact.email, mail, tx);
      }
      return true;
    });
  }

  private async creditBonus(tx: Executor, invoice: TopupInvoiceRow): Promise<string | undefined> {
    if (invoice.couponId === null || !dec(invoice.bonusAmount).gt(0)) return undefined;
    if (!(await this.coupons.redeem(tx, invoice.couponId, invoice.id, invoice.customerId, invoice.bonusAmount))) {
      this.log.warn({ invoiceId: invoice.id, coupon: invoice.couponCode }, 'coupon used up before the deposit was paid: no bonus');
      return undefined;
    }
    await this.wallet.credit(tx, {
      customerId: invoice.customerId,
      type: BalanceLogType.Bonus,
      amount: invoice.bonusAmount,
      part: 'bonus',
      referenceType: TOPUP_REFERENCE,
      referenceId: invoice.id,
      description: `Coupon ${invoice.couponCode} bonus`,
    });
    return moneyString(invoice.bonusAmount);
  }

  /** Queues the credit task again for Paid invoices left uncredited; the task itself is idempotent. */
  async requeueUncredited(): Promise<number> {
    const paidBefore = new Date(this.clock.now().getTime() - RECREDIT_AFTER_MINUTES * 60_000);
    const ids = await this.repo.listUncredited(this.db, paidBefore, 500);
    for (const invoiceId of ids) await this.queue.send(this.creditJob, { invoiceId }, { singletonKey: `recredit:${invoiceId}` });
    return ids.length;
  }

  /** Pending invoices past their expiry (TOPUP_EXPIRY_HOURS after creation) → Expired. */
  expireDue(): Promise<number> {
    return this.repo.expireDue(this.db, this.clock.now());
  }
}

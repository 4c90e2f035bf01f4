import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, InvalidSignatureError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { JobDefinition, JobQueue } from '../../platform/queue/queue.js';
import type { GatewayName, InboundCallback, PaymentGateways, VerifiedCallback } from '../../integrations/payment-gateways/index.js';
import type { BillingRepository, CallbackFilter, NewPaymentCallback, PaymentCallbackRow, TopupInvoiceRow } from './billing.repository.js';
import type { CallbackOutcome } from './billing.tables.js';
import { capCallbackBody } from './callback-retention.js';
import { CREDIT_TASK_DELAY_SECONDS } from './topup-crediting.service.js';
import type { CouponsService } from './coupons.service.js';

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
 * Callback intake: a gateway's callback is verified and recorded (verified or not) for
 * reconciliation, and moves the invoice (Pending → Paid/Failed/Expired); a success writes the
 * credit task (TopupCreditingService's `creditJob`) in the same statement, then credits the wallet
 * before answering (creditOnPayment), the task completed with the credit; the task is the safety
 * net that credits it if this process could not. Exactly once either way.
 */
export class TopupCallbacksService {
  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly coupons: CouponsService,
    private readonly gateways: PaymentGateways,
    private readonly queue: JobQueue,
    /** the credit task a success queues */
    private readonly creditJob: JobDefinition<{ invoiceId: string }>,
    /** credits a just-paid invoice at once (TopupCreditingService.creditOnPayment); the task is its safety net */
    private readonly creditOnPayment: (invoiceId: string, jobId: string | null) => Promise<void>,
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
    const row = () => ({
      gatewayName,
      claimedInvoiceId: gateway.claimedInvoiceId(cb),
      rawBody: capCallbackBody(cb.rawBody, verified),
      headers: Object.fromEntries(RECORDED_HEADERS.filter((h) => cb.headers[h] !== undefined).map((h) => [h, String(cb.headers[h]).slice(0, 500)])),
      remoteIp: remoteIp ?? null,
      signatureValid: verified,
      outcome,
      responseStatus: status,
    });
    // A success that moves the invoice is recorded by the statement that moves it; everything else afterwards.
    let recorded = false;
    try {
      const callback = gateway.verifyCallback(cb);
      verified = true;
      outcome = await this.apply(gatewayName, callback, () => ({ ...row(), outcome: 'paid' as const, responseStatus: 200 }));
      recorded = outcome === 'paid';
      return outcome;
    } catch (err) {
      outcome = outcomeOf(err);
      status = err instanceof AppError ? err.status : 500;
      throw err;
    } finally {
      if (!recorded) await this.repo.recordCallback(this.db, row()).catch((err: unknown) => this.log.error({ err, gatewayName }, 'could not record a payment callback'));
    }
  }

  /** Whether a callback carries a valid signature of its gateway (a local HMAC; the rate limit spares these). */
  isSigned(gatewayName: GatewayName, cb: InboundCallback): boolean {
    try {
      this.gateways.get(gatewayName)!.verifyCallback(cb);
      return true;
    } catch {
      return false;
    }
  }

  /** The reconciliation trail: every callback received, newest first. */
  listCallbacks(filter: CallbackFilter, p: PageRequest): Promise<Page<PaymentCallbackRow>> {
    return this.repo.listCallbacks(this.db, filter, p);
  }

  /**
   * A verified callback. The hot path, a success for a Pending invoice, is one statement: the
   * UPDATE that moves the invoice only if it was made with this gateway for this amount, with the
   * credit task (TopupCallbackSuccessTask, due after CREDIT_TASK_DELAY_SECONDS) and the
   * reconciliation record (`paidRecord`) as CTEs of it, so all three exist or none; then the credit
   * itself, with this process's other fresh payments, which completes the task. Only when nothing moved is the invoice read, to answer
   * 404, a mismatch, or a repeat. In live mode the gateway confirms the payment first (a network
   * call, never inside a transaction), after the same checks.
   */
  private async apply(gatewayName: GatewayName, cb: VerifiedCallback, paidRecord: () => NewPaymentCallback): Promise<CallbackOutcome> {
    const gateway = this.gateways.get(gatewayName)!;
    const now = this.clock.now();
    switch (cb.result) {
      case 'success': {
        if (gateway.mode === 'live') {
          const invoice = await this.checkedInvoice(gatewayName, cb);
          if (invoice.status === 'Paid') return 'duplicate';
          if (!(await gateway.confirmPaid({ invoiceId: invoice.id, totalAmount: invoice.totalAmount }))) {
            this.log.error({ invoiceId: invoice.id, gatewayName }, 'success callback not confirmed by the gateway: not credited');
            throw new BadRequestError('PAYMENT_NOT_CONFIRMED', 'The gateway does not confirm this payment');
          }
        }
        const paid = await this.repo.markPaidWithJob(
          this.db,
          { id: cb.invoiceId, gatewayName, totalAmount: cb.amount, at: now },
          paidRecord(),
          (payloads) => this.queue.enqueueSql(this.creditJob, payloads, { delaySeconds: CREDIT_TASK_DELAY_SECONDS }),
        );
        if (paid) {
          await this.creditOnPayment(cb.invoiceId, paid.jobId);
          return 'paid';
        }
        // Nothing moved: unknown (404), another gateway's or another amount (400), or a repeat (200).
        const invoice = await this.checkedInvoice(gatewayName, cb);
        return invoice.status === 'Paid' ? 'duplicate' : 'ignored';
      }
      case 'failed': {
        const invoice = await this.checkedInvoice(gatewayName, cb);
        const moved = await this.db.transaction(async (tx) => this.released(tx, await this.repo.markFailed(tx, invoice.id, now)));
        return moved ? 'failed' : this.settled(invoice.id, 'failed');
      }
      case 'expired': {
        const invoice = await this.checkedInvoice(gatewayName, cb);
        const moved = await this.db.transaction(async (tx) => this.released(tx, await this.repo.markExpired(tx, invoice.id, now)));
        return moved ? 'expired' : this.settled(invoice.id, 'expired');
      }
      default: {
        const invoice = await this.checkedInvoice(gatewayName, cb);
        this.log.warn({ invoiceId: invoice.id, gatewayName, result: cb.rawResult }, 'callback with an unknown result code: ignored');
        return 'ignored';
      }
    }
  }

  /** The invoice a verified callback is about: 404 when unknown, 400 when made with another gateway or for another amount. */
  private async checkedInvoice(gatewayName: GatewayName, cb: VerifiedCallback): Promise<TopupInvoiceRow> {
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
    return invoice;
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
}

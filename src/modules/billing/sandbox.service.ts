import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { moneyString } from '../../platform/money.js';
import type { CallbackResult, GatewayName, PaymentGateways } from '../../integrations/payment-gateways/index.js';
import type { BillingRepository, TopupInvoiceRow } from './billing.repository.js';

export interface SandboxPaymentResult {
  result: CallbackResult;
  callbackStatus: number;
  callbackBody: string;
}

/**
 * The sandbox gateways (PAYMENT_MODE=sandbox): a local payment page whose buttons make the
 * service send itself the gateway's real, signed callback over HTTP (to PUBLIC_URL), so the
 * sandbox runs the same code path as a live payment.
 */
export class SandboxPaymentsService {
  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly gateways: PaymentGateways,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly publicUrl: string,
  ) {}

  async invoice(gateway: GatewayName, invoiceId: string): Promise<TopupInvoiceRow> {
    const invoice = await this.repo.findInvoice(this.db, invoiceId);
    if (!invoice || invoice.gatewayName !== gateway) throw new NotFoundError('Invoice');
    return invoice;
  }

  async complete(gateway: GatewayName, invoiceId: string, result: CallbackResult): Promise<SandboxPaymentResult> {
    const invoice = await this.invoice(gateway, invoiceId);
    // like its page: only a Pending invoice can be paid here (an expired or voided link cannot)
    if (invoice.status !== 'Pending') throw new ConflictError(`This invoice is ${invoice.status} and can no longer be paid`, 'INVOICE_NOT_PAYABLE');
    const callback = this.gateways.get(gateway)!.sandboxCallback(
      { invoiceId: invoice.id, totalAmount: moneyString(invoice.totalAmount), gatewayReference: invoice.gatewayReference },
      result,
      this.clock.now(),
    );
    const res = await fetch(`${this.publicUrl}${callback.path}`, {
      method: 'POST',
      headers: callback.headers,
      body: callback.body,
      signal: AbortSignal.timeout(10_000),
    });
    const body = await res.text();
    this.log.info({ gateway, invoiceId, result, status: res.status }, 'sandbox gateway sent its callback');
    return { result, callbackStatus: res.status, callbackBody: body };
  }
}

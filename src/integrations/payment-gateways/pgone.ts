import { systemClock } from '../../platform/clock.js';
import { InvalidSignatureError, ValidationError, type FieldError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { PaymentGatewayError } from './errors.js';
import { sandboxPayment } from './sandbox.js';
import { GATEWAY_AMOUNT, gatewayAmount, hmacSha256Hex, signatureMatches } from './signatures.js';
import type {
  CallbackResult,
  CreatedPayment,
  CreatePaymentRequest,
  GatewayConfig,
  HttpSend,
  InboundCallback,
  OutboundRequest,
  PaymentGateway,
  SandboxCallback,
  VerifiedCallback,
} from './types.js';

const RESULT: Record<string, CallbackResult> = { '00': 'success', '01': 'failed' };
const RESULT_CODE: Record<CallbackResult, string | undefined> = { success: '00', failed: '01', expired: undefined };
export const PGONE_CALLBACK_PATH = '/api/webhook/pgone/callback';

/**
 * pgone: form-encoded callbacks {merchantOrderId, amount, resultCode, signature}; signature =
 * lowercase hex HMAC-SHA256(key = PGONE_API_KEY, merchantCode + amount + merchantOrderId).
 */
export class PgOneGateway implements PaymentGateway {
  readonly name = 'pgone' as const;
  readonly mode: 'sandbox' | 'live';

  constructor(
    private readonly config: GatewayConfig,
    private readonly send: HttpSend,
  ) {
    this.mode = config.mode;
  }

  signature(amount: string, merchantOrderId: string): string {
    return hmacSha256Hex(this.config.pgone.apiKey, `${this.config.pgone.merchantCode}${amount}${merchantOrderId}`);
  }

  /** The inquiry request of the live gateway. */
  buildCreateRequest(req: CreatePaymentRequest): OutboundRequest {
    const { merchantCode, apiKey, baseUrl } = this.config.pgone;
    const paymentAmount = gatewayAmount(req.totalAmount);
    const body = {
      merchantCode,
      paymentAmount,
      paymentMethod: req.methodCode,
      merchantOrderId: req.invoiceId,
      productDetails: req.description,
      email: req.customer.email,
      customerVaName: req.customer.name,
      callbackUrl: `${this.config.publicUrl}${PGONE_CALLBACK_PATH}`,
      returnUrl: `${this.config.publicUrl}/api/payment/redirect/pgone`,
      expiryPeriod: Math.max(1, Math.round((req.expiresAt.getTime() - (this.config.clock ?? systemClock).now().getTime()) / 60_000)),
      signature: hmacSha256Hex(apiKey, `${merchantCode}${req.invoiceId}${paymentAmount}`),
    };
    return { url: `${baseUrl}/v2/inquiry`, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) };
  }

  async createPayment(req: CreatePaymentRequest): Promise<CreatedPayment> {
    if (this.mode === 'sandbox') return sandboxPayment('pgone', this.config.publicUrl, req, '8808');
    const res = await this.send(this.buildCreateRequest(req)).catch((err: Error) => {
      throw new PaymentGatewayError('pgone', err.message);
    });
    const b = (res.body ?? {}) as Record<string, unknown>;
    if (res.status !== 200 || b.statusCode !== '00' || typeof b.paymentUrl !== 'string') {
      throw new PaymentGatewayError('pgone', `HTTP ${res.status} ${String(b.statusMessage ?? '')}`.trim());
    }
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    return {
      paymentUrl: b.paymentUrl,
      redirectUrl: req.methodType === 'EWALLET' || req.methodType === 'CARD' ? b.paymentUrl : null,
      vaNumber: str(b.vaNumber),
      qrString: str(b.qrString),
      gatewayReference: str(b.reference),
    };
  }

  /** The transaction-status request of the live gateway. */
  buildStatusRequest(invoiceId: string): OutboundRequest {
    const { merchantCode, apiKey, baseUrl } = this.config.pgone;
    const body = { merchantCode, merchantOrderId: invoiceId, signature: hmacSha256Hex(apiKey, `${merchantCode}${invoiceId}`) };
    return { url: `${baseUrl}/v2/transactionStatus`, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) };
  }

  async confirmPaid(invoice: { invoiceId: string; totalAmount: string }): Promise<boolean> {
    if (this.mode === 'sandbox') return true;
    const res = await this.send(this.buildStatusRequest(invoice.invoiceId)).catch((err: Error) => {
      throw new PaymentGatewayError('pgone', err.message);
    });
    if (res.status !== 200) throw new PaymentGatewayError('pgone', `status check HTTP ${res.status}`);
    const b = (res.body ?? {}) as Record<string, unknown>;
    const amount = String(b.amount ?? '');
    return b.statusCode === '00' && GATEWAY_AMOUNT.test(amount) && dec(amount).eq(invoice.totalAmount);
  }

  claimedInvoiceId(cb: InboundCallback): string | null {
    const v = (cb.body as Record<string, unknown> | null)?.merchantOrderId;
    return typeof v === 'string' ? v.slice(0, 100) : null;
  }

  verifyCallback(cb: InboundCallback): VerifiedCallback {
    const body = (cb.body && typeof cb.body === 'object' ? cb.body : {}) as Record<string, unknown>;
    // No signature is a signature that does not match (spec: 401), not a malformed body.
    if (typeof body.signature !== 'string' || body.signature === '') throw new InvalidSignatureError();
    const errors: FieldError[] = [];
    for (const field of ['merchantOrderId', 'amount', 'resultCode']) {
      if (typeof body[field] !== 'string' || body[field] === '') errors.push({ field, message: 'is required (one string)' });
    }
    if (errors.length > 0) throw new ValidationError('Malformed callback', errors);
    const { merchantOrderId, amount, resultCode, signature } = body as Record<string, string>;
    if (!signatureMatches(this.signature(amount!, merchantOrderId!), signature)) throw new InvalidSignatureError();
    if (!GATEWAY_AMOUNT.test(amount!)) throw new ValidationError('Malformed callback', [{ field: 'amount', message: 'is not a decimal amount' }]);
    return {
      invoiceId: merchantOrderId!,
      amount: amount!,
      result: RESULT[resultCode!],
      rawResult: resultCode!,
      gatewayReference: typeof body.reference === 'string' ? body.reference : null,
    };
  }

  sandboxCallback(invoice: { invoiceId: string; totalAmount: string; gatewayReference: string | null }, result: CallbackResult): SandboxCallback {
    const resultCode = RESULT_CODE[result];
    if (!resultCode) throw new Error(`pgone has no result code for ${result}`);
    const amount = gatewayAmount(invoice.totalAmount);
    const form = new URLSearchParams({
      merchantCode: this.config.pgone.merchantCode,
      amount,
      merchantOrderId: invoice.invoiceId,
      resultCode,
      reference: invoice.gatewayReference ?? '',
      signature: this.signature(amount, invoice.invoiceId),
    });
    return { path: PGONE_CALLBACK_PATH, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() };
  }
}

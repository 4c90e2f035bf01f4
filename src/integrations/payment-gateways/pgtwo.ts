import { systemClock } from '../../platform/clock.js';
import { InvalidSignatureError, ValidationError, type FieldError } from '../../platform/errors.js';
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

const RESULT: Record<string, CallbackResult> = { PAID: 'success', SETTLED: 'success', FAILED: 'failed', EXPIRED: 'expired' };
const STATUS: Record<CallbackResult, string> = { success: 'PAID', failed: 'FAILED', expired: 'EXPIRED' };
export const PGTWO_CALLBACK_PATH = '/api/webhook/pgtwo/callback';
export const PGTWO_SIGNATURE_HEADER = 'x-callback-signature';

/**
 * pgtwo: JSON callbacks {id, external_id, amount, status, paid_at}; header X-Callback-Signature =
 * lowercase hex HMAC-SHA256(PGTWO_CALLBACK_SECRET, raw body).
 */
export class PgTwoGateway implements PaymentGateway {
  readonly name = 'pgtwo' as const;
  readonly mode: 'sandbox' | 'live';

  constructor(
    private readonly config: GatewayConfig,
    private readonly send: HttpSend,
  ) {
    this.mode = config.mode;
  }

  signature(rawBody: string): string {
    return hmacSha256Hex(this.config.pgtwo.callbackSecret, rawBody);
  }

  /** The create-invoice request of the live gateway (HTTP Basic with the secret API key). */
  buildCreateRequest(req: CreatePaymentRequest): OutboundRequest {
    const { apiKey, baseUrl } = this.config.pgtwo;
    const body = {
      external_id: req.invoiceId,
      // A decimal string with at most 2 decimals, written as a JSON number (no arithmetic here).
      amount: Number(gatewayAmount(req.totalAmount)),
      currency: req.currency,
      description: req.description,
      payer_email: req.customer.email,
      customer: { given_names: req.customer.name, email: req.customer.email },
      payment_methods: [req.methodCode],
      invoice_duration: Math.max(60, Math.round((req.expiresAt.getTime() - (this.config.clock ?? systemClock).now().getTime()) / 1000)),
      success_redirect_url: `${this.config.publicUrl}/api/payment/redirect/pgtwo?status=success`,
      failure_redirect_url: `${this.config.publicUrl}/api/payment/redirect/pgtwo?status=failed`,
    };
    return {
      url: `${baseUrl}/v2/invoices`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`,
        'idempotency-key': req.invoiceId,
      },
      body: JSON.stringify(body),
    };
  }

  async createPayment(req: CreatePaymentRequest): Promise<CreatedPayment> {
    if (this.mode === 'sandbox') return sandboxPayment('pgtwo', this.config.publicUrl, req, '8277');
    const res = await this.send(this.buildCreateRequest(req)).catch((err: Error) => {
      throw new PaymentGatewayError('pgtwo', err.message);
    });
    const b = (res.body ?? {}) as Record<string, unknown>;
    if (res.status < 200 || res.status >= 300 || typeof b.invoice_url !== 'string' || typeof b.id !== 'string') {
      throw new PaymentGatewayError('pgtwo', `HTTP ${res.status} ${String(b.error_code ?? '')}`.trim());
    }
    const instructions = (b.payment_details ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    return {
      paymentUrl: b.invoice_url,
      redirectUrl: req.methodType === 'EWALLET' || req.methodType === 'CARD' ? b.invoice_url : null,
      vaNumber: str(instructions.account_number),
      qrString: str(instructions.qr_string),
      gatewayReference: b.id,
    };
  }

  /** pgtwo signs the whole body (status included), so a verified callback needs no second look. */
  async confirmPaid(): Promise<boolean> {
    return true;
  }

  claimedInvoiceId(cb: InboundCallback): string | null {
    const v = (cb.body as Record<string, unknown> | null)?.external_id;
    return typeof v === 'string' ? v.slice(0, 100) : null;
  }

  verifyCallback(cb: InboundCallback): VerifiedCallback {
    const header = cb.headers[PGTWO_SIGNATURE_HEADER];
    if (!signatureMatches(this.signature(cb.rawBody), header)) throw new InvalidSignatureError();
    const body = (cb.body && typeof cb.body === 'object' && !Array.isArray(cb.body) ? cb.body : {}) as Record<string, unknown>;
    const errors: FieldError[] = [];
    for (const field of ['id', 'external_id', 'status']) {
      if (typeof body[field] !== 'string' || body[field] === '') errors.push({ field, message: 'is required (a string)' });
    }
    const amount = typeof body.amount === 'number' && Number.isFinite(body.amount) ? String(body.amount) : body.amount;
    if (typeof amount !== 'string' || !GATEWAY_AMOUNT.test(amount)) errors.push({ field: 'amount', message: 'is not a decimal amount' });
    if (errors.length > 0) throw new ValidationError('Malformed callback', errors);
    return {
      invoiceId: body.external_id as string,
      amount: amount as string,
      result: RESULT[body.status as string],
      rawResult: body.status as string,
      gatewayReference: body.id as string,
    };
  }

  sandboxCallback(
    invoice: { invoiceId: string; totalAmount: string; gatewayReference: string | null },
    result: CallbackResult,
    at: Date,
  ): SandboxCallback {
    const body = JSON.stringify({
      id: invoice.gatewayReference ?? `sbx-${invoice.invoiceId}`,
      external_id: invoice.invoiceId,
      amount: Number(gatewayAmount(invoice.totalAmount)),
      status: STATUS[result],
      paid_at: result === 'success' ? at.toISOString() : null,
    });
    return { path: PGTWO_CALLBACK_PATH, headers: { 'content-type': 'application/json', [PGTWO_SIGNATURE_HEADER]: this.signature(body) }, body };
  }
}

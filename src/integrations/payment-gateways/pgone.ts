import { InvalidSignatureError, ValidationError, type FieldError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { GatewayAdapter, textOrNull, type CallbackBody } from './adapter.js';
import { PaymentGatewayError } from './errors.js';
import { GATEWAY_AMOUNT, gatewayAmount, hmacSha256Hex, signatureMatches } from './signatures.js';
import type { CallbackResult, CreatedPayment, CreatePaymentRequest, InboundCallback, OutboundRequest, SandboxCallback } from './types.js';

const RESULT_CODE: Record<CallbackResult, string | undefined> = { success: '00', failed: '01', expired: undefined };
export const PGONE_CALLBACK_PATH = '/api/webhook/pgone/callback';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * pgone: form-encoded callbacks {merchantOrderId, amount, resultCode, signature}; signature =
 * lowercase hex HMAC-SHA256(key = PGONE_API_KEY, merchantCode + amount + merchantOrderId). The
 * signature does not cover resultCode, so a live success is confirmed with the gateway first.
 */
export class PgOneGateway extends GatewayAdapter {
  readonly name = 'pgone' as const;
  protected readonly results = { '00': 'success', '01': 'failed' } as const;
  protected readonly fields = { invoiceId: 'merchantOrderId', amount: 'amount', result: 'resultCode', reference: 'reference', referenceRequired: false };
  protected readonly sandboxVaPrefix = '8808';

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
      returnUrl: `${req.returnBase ?? this.config.publicUrl}/api/payment/redirect/pgone`,
      expiryPeriod: Math.max(1, Math.round(this.secondsUntil(req.expiresAt) / 60)),
      signature: hmacSha256Hex(apiKey, `${merchantCode}${req.invoiceId}${paymentAmount}`),
    };
    return { url: `${baseUrl}/v2/inquiry`, method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) };
  }

  protected readCreated(res: { status: number; body: unknown }, req: CreatePaymentRequest): CreatedPayment | string {
    const b = (res.body ?? {}) as Record<string, unknown>;
    if (res.status !== 200 || b.statusCode !== '00' || typeof b.paymentUrl !== 'string') return `HTTP ${res.status} ${String(b.statusMessage ?? '')}`.trim();
    return {
      paymentUrl: b.paymentUrl,
      redirectUrl: req.methodType === 'EWALLET' || req.methodType === 'CARD' ? b.paymentUrl : null,
      vaNumber: textOrNull(b.vaNumber),
      qrString: textOrNull(b.qrString),
      gatewayReference: textOrNull(b.reference),
    };
  }

  /** The transaction-status request of the live gateway. */
  buildStatusRequest(invoiceId: string): OutboundRequest {
    const { merchantCode, apiKey, baseUrl } = this.config.pgone;
    const body = { merchantCode, merchantOrderId: invoiceId, signature: hmacSha256Hex(apiKey, `${merchantCode}${invoiceId}`) };
    return { url: `${baseUrl}/v2/transactionStatus`, method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) };
  }

  protected override async confirmLive(invoice: { invoiceId: string; totalAmount: string }): Promise<boolean> {
    const res = await this.call(this.buildStatusRequest(invoice.invoiceId));
    if (res.status !== 200) throw new PaymentGatewayError('pgone', `status check HTTP ${res.status}`);
    const b = (res.body ?? {}) as Record<string, unknown>;
    const amount = String(b.amount ?? '');
    return b.statusCode === '00' && GATEWAY_AMOUNT.test(amount) && dec(amount).eq(invoice.totalAmount);
  }

  /** No signature is a signature that does not match (401); the signed fields must be there to check it (400). */
  protected checkSignature(_cb: InboundCallback, body: CallbackBody): void {
    if (typeof body.signature !== 'string' || body.signature === '') throw new InvalidSignatureError();
    const errors: FieldError[] = [];
    for (const field of ['merchantOrderId', 'amount', 'resultCode']) {
      if (typeof body[field] !== 'string' || body[field] === '') errors.push({ field, message: 'is required (one string)' });
    }
    if (errors.length > 0) throw new ValidationError('Malformed callback', errors);
    if (!signatureMatches(this.signature(body.amount as string, body.merchantOrderId as string), body.signature)) throw new InvalidSignatureError();
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

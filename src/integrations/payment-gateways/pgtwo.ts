import { isLosslessNumber, LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { InvalidSignatureError } from '../../platform/errors.js';
import { GatewayAdapter, textOrNull, type CallbackBody } from './adapter.js';
import { gatewayAmount, hmacSha256Hex, signatureMatches } from './signatures.js';
import type { CallbackResult, CreatedPayment, CreatePaymentRequest, InboundCallback, OutboundRequest, SandboxCallback } from './types.js';

const STATUS: Record<CallbackResult, string> = { success: 'PAID', failed: 'FAILED', expired: 'EXPIRED' };
export const PGTWO_CALLBACK_PATH = '/api/webhook/pgtwo/callback';
export const PGTWO_SIGNATURE_HEADER = 'x-callback-signature';

/** JSON with the amount written from its decimal text (never through a JS float). */
const exactJson = (value: object): string => stringifyLossless(value) as string;

/**
 * pgtwo: JSON callbacks {id, external_id, amount, status, paid_at}; header X-Callback-Signature =
 * lowercase hex HMAC-SHA256(PGTWO_CALLBACK_SECRET, raw body). The signature covers the whole body
 * (status included), so a verified callback needs no second look at the gateway.
 */
export class PgTwoGateway extends GatewayAdapter {
  readonly name = 'pgtwo' as const;
  protected readonly results = { PAID: 'success', SETTLED: 'success', FAILED: 'failed', EXPIRED: 'expired' } as const;
  protected readonly fields = { invoiceId: 'external_id', amount: 'amount', result: 'status', reference: 'id', referenceRequired: true };
  protected readonly sandboxVaPrefix = '8277';

  signature(rawBody: string): string {
    return hmacSha256Hex(this.config.pgtwo.callbackSecret, rawBody);
  }

  /** The create-invoice request of the live gateway (HTTP Basic with the secret API key). */
  buildCreateRequest(req: CreatePaymentRequest): OutboundRequest {
    const { apiKey, baseUrl } = this.config.pgtwo;
    const body = {
      external_id: req.invoiceId,
      amount: new LosslessNumber(gatewayAmount(req.totalAmount)),
      currency: req.currency,
      description: req.description,
      payer_email: req.customer.email,
      customer: { given_names: req.customer.name, email: req.customer.email },
      payment_methods: [req.methodCode],
      invoice_duration: Math.max(60, Math.round(this.secondsUntil(req.expiresAt))),
      success_redirect_url: `${req.returnBase ?? this.config.publicUrl}/api/payment/redirect/pgtwo?status=success`,
      failure_redirect_url: `${req.returnBase ?? this.config.publicUrl}/api/payment/redirect/pgtwo?status=failed`,
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
      body: exactJson(body),
    };
  }

  protected readCreated(res: { status: number; body: unknown }, req: CreatePaymentRequest): CreatedPayment | string {
    const b = (res.body ?? {}) as Record<string, unknown>;
    if (res.status < 200 || res.status >= 300 || typeof b.invoice_url !== 'string' || typeof b.id !== 'string') return `HTTP ${res.status} ${String(b.error_code ?? '')}`.trim();
    const instructions = (b.payment_details ?? {}) as Record<string, unknown>;
    return {
      paymentUrl: b.invoice_url,
      redirectUrl: req.methodType === 'EWALLET' || req.methodType === 'CARD' ? b.invoice_url : null,
      vaNumber: textOrNull(instructions.account_number),
      qrString: textOrNull(instructions.qr_string),
      gatewayReference: b.id,
    };
  }

  /** The body read from its raw text, so the amount is the gateway's exact decimal (a JSON number is never rounded). */
  protected override bodyOf(cb: InboundCallback): CallbackBody {
    try {
      const parsed = parseLossless(cb.rawBody);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const body = { ...(parsed as CallbackBody) };
        if (isLosslessNumber(body.amount)) body.amount = body.amount.value;
        return body;
      }
    } catch {
      /* not JSON: the route's parse (or nothing) */
    }
    return super.bodyOf(cb);
  }

  protected checkSignature(cb: InboundCallback): void {
    if (!signatureMatches(this.signature(cb.rawBody), cb.headers[PGTWO_SIGNATURE_HEADER])) throw new InvalidSignatureError();
  }

  sandboxCallback(invoice: { invoiceId: string; totalAmount: string; gatewayReference: string | null }, result: CallbackResult, at: Date): SandboxCallback {
    const body = exactJson({
      id: invoice.gatewayReference ?? `sbx-${invoice.invoiceId}`,
      external_id: invoice.invoiceId,
      amount: new LosslessNumber(gatewayAmount(invoice.totalAmount)),
      status: STATUS[result],
      paid_at: result === 'success' ? at.toISOString() : null,
    });
    return { path: PGTWO_CALLBACK_PATH, headers: { 'content-type': 'application/json', [PGTWO_SIGNATURE_HEADER]: this.signature(body) }, body };
  }
}

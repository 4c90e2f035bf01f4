import { systemClock, type Clock } from '../../platform/clock.js';
import { ValidationError, type FieldError } from '../../platform/errors.js';
import { PaymentGatewayError } from './errors.js';
import { sandboxPayment } from './sandbox.js';
import { GATEWAY_AMOUNT } from './signatures.js';
import type {
  CallbackResult,
  CreatedPayment,
  CreatePaymentRequest,
  GatewayConfig,
  GatewayName,
  HttpSend,
  InboundCallback,
  OutboundRequest,
  PaymentGateway,
  SandboxCallback,
  VerifiedCallback,
} from './types.js';

/** Where a gateway's callback carries each thing the service needs. */
export interface CallbackFields {
  invoiceId: string;
  amount: string;
  result: string;
  reference: string;
  /** pgtwo always names its payment; pgone may leave the reference out */
  referenceRequired: boolean;
}

export type CallbackBody = Record<string, unknown>;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * The one skeleton of every gateway adapter (docs/architecture.md, habit 13): sandbox or live payment
 * creation, the live call with its error handling, the status check before crediting, and the
 * callback's verification in a fixed order (signature → required fields → amount format → result
 * mapping). An adapter supplies only what differs: how its requests look, how its answers and
 * callbacks are read, and how it signs.
 */
export abstract class GatewayAdapter implements PaymentGateway {
  abstract readonly name: GatewayName;
  readonly mode: 'sandbox' | 'live';
  protected readonly clock: Clock;

  /** The gateway's result codes → the service's results; an unknown code is recorded and ignored. */
  protected abstract readonly results: Readonly<Record<string, CallbackResult>>;
  protected abstract readonly fields: CallbackFields;
  /** The first digits of the sandbox's virtual account numbers. */
  protected abstract readonly sandboxVaPrefix: string;

  constructor(
    protected readonly config: GatewayConfig,
    protected readonly send: HttpSend,
  ) {
    this.mode = config.mode;
    this.clock = config.clock ?? systemClock;
  }

  /** The live gateway's create-payment request (built apart so it can be checked without network). */
  abstract buildCreateRequest(req: CreatePaymentRequest): OutboundRequest;
  /** The created payment in the live gateway's answer, or a description of why there is none. */
  protected abstract readCreated(res: { status: number; body: unknown }, req: CreatePaymentRequest): CreatedPayment | string;
  /** Throws InvalidSignatureError (401) unless the callback is signed by the gateway; may throw ValidationError for unsigned fields it needs. */
  protected abstract checkSignature(cb: InboundCallback, body: CallbackBody): void;
  /** The correctly signed callback the real gateway would send (sandbox payment page). */
  abstract sandboxCallback(invoice: { invoiceId: string; totalAmount: string; gatewayReference: string | null }, result: CallbackResult, at: Date): SandboxCallback;

  /** Live: whether the gateway confirms the payment before it is credited (default: the signature is enough). */
  protected async confirmLive(_invoice: { invoiceId: string; totalAmount: string }): Promise<boolean> {
    return true;
  }

  /** The parsed callback body (adapters may read it more exactly than the route's parser). */
  protected bodyOf(cb: InboundCallback): CallbackBody {
    return (cb.body && typeof cb.body === 'object' && !Array.isArray(cb.body) ? cb.body : {}) as CallbackBody;
  }

  /** Whole minutes / seconds from the injected clock's now until `at`. */
  protected secondsUntil(at: Date): number {
    return (at.getTime() - this.clock.now().getTime()) / 1000;
  }

  /** Sends a live request; a transport failure is a 502 GATEWAY_ERROR. */
  protected async call(req: OutboundRequest): Promise<{ status: number; body: unknown }> {
    return this.send(req).catch((err: Error) => {
      throw new PaymentGatewayError(this.name, err.message);
    });
  }

  async createPayment(req: CreatePaymentRequest): Promise<CreatedPayment> {
    if (this.mode === 'sandbox') return sandboxPayment(this.name, this.config.publicUrl, req, this.sandboxVaPrefix);
    const created = this.readCreated(await this.call(this.buildCreateRequest(req)), req);
    if (typeof created === 'string') throw new PaymentGatewayError(this.name, created);
    return created;
  }

  async confirmPaid(invoice: { invoiceId: string; totalAmount: string }): Promise<boolean> {
    return this.mode === 'sandbox' ? true : this.confirmLive(invoice);
  }

  claimedInvoiceId(cb: InboundCallback): string | null {
    const v = this.bodyOf(cb)[this.fields.invoiceId];
    return typeof v === 'string' ? v.slice(0, 100) : null;
  }

  verifyCallback(cb: InboundCallback): VerifiedCallback {
    const body = this.bodyOf(cb);
    this.checkSignature(cb, body);
    const f = this.fields;
    const errors: FieldError[] = [];
    for (const field of [f.invoiceId, f.result, ...(f.referenceRequired ? [f.reference] : [])]) {
      if (!nonEmpty(body[field])) errors.push({ field, message: 'is required (a string)' });
    }
    const amount = body[f.amount];
    if (typeof amount !== 'string' || !GATEWAY_AMOUNT.test(amount)) errors.push({ field: f.amount, message: 'is not a decimal amount' });
    if (errors.length > 0) throw new ValidationError('Malformed callback', errors);
    const rawResult = body[f.result] as string;
    const reference = body[f.reference];
    return {
      invoiceId: body[f.invoiceId] as string,
      amount: amount as string,
      result: this.results[rawResult],
      rawResult,
      gatewayReference: typeof reference === 'string' ? reference : null,
    };
  }
}

/** A string field of a gateway's answer, null when absent or empty. */
export const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

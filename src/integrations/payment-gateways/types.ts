import type { Clock } from '../../platform/clock.js';
export type GatewayName = 'pgone' | 'pgtwo';
export const GATEWAY_NAMES: readonly GatewayName[] = ['pgone', 'pgtwo'];

export type PaymentMethodType = 'VIRTUAL_ACCOUNT' | 'QRIS' | 'EWALLET' | 'CARD';

export interface CreatePaymentRequest {
  /** the invoice UUID, sent as the merchant order id */
  invoiceId: string;
  /** what the gateway charges (deposit + fee), 2 decimals */
  totalAmount: string;
  currency: string;
  methodCode: string;
  methodType: PaymentMethodType;
  customer: { email: string; name: string };
  expiresAt: Date;
  description: string;
  /**
   * Where the person's browser comes back to: the origin (scheme, host, port) of this service they
   * started the top-up on, already checked by the caller. Unset: PUBLIC_URL. Callbacks (server to
   * server) always go to PUBLIC_URL.
   */
  returnBase?: string;
}

export interface CreatedPayment {
  paymentUrl: string;
  redirectUrl: string | null;
  vaNumber: string | null;
  qrString: string | null;
  /** the gateway's own id for the payment, when it has one */
  gatewayReference: string | null;
}

export interface InboundCallback {
  /** the body exactly as received */
  rawBody: string;
  /** the parsed body */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export type CallbackResult = 'success' | 'failed' | 'expired';

/** A callback whose signature checked out. */
export interface VerifiedCallback {
  invoiceId: string;
  /** the amount as the gateway wrote it (a decimal string) */
  amount: string;
  /** undefined: a result code the service does not know */
  result: CallbackResult | undefined;
  rawResult: string;
  gatewayReference: string | null;
}

/** The outbound request a live adapter makes (built separately so it can be checked without network). */
export interface OutboundRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

export type HttpSend = (req: OutboundRequest) => Promise<{ status: number; body: unknown }>;

export interface SandboxCallback {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** One payment gateway: create a payment, verify its callbacks. Sandbox and live share it. */
export interface PaymentGateway {
  readonly name: GatewayName;
  readonly mode: 'sandbox' | 'live';
  createPayment(req: CreatePaymentRequest): Promise<CreatedPayment>;
  /** Best effort, before verification: which invoice the callback claims to be about. */
  claimedInvoiceId(cb: InboundCallback): string | null;
  /**
   * Checks the callback's shape and signature: throws ValidationError (400) for a malformed
   * body, InvalidSignatureError (401) for a bad signature.
   */
  verifyCallback(cb: InboundCallback): VerifiedCallback;
  /**
   * Live mode: asks the gateway whether the payment really succeeded before it is credited
   * (pgone's signature does not cover resultCode). Sandbox: always true. Throws
   * PaymentGatewayError when the gateway cannot be asked.
   */
  confirmPaid(invoice: { invoiceId: string; totalAmount: string }): Promise<boolean>;
  /** The correctly signed callback the real gateway would send (sandbox payment page). */
  sandboxCallback(invoice: { invoiceId: string; totalAmount: string; gatewayReference: string | null }, result: CallbackResult, at: Date): SandboxCallback;
}

export interface GatewayConfig {
  mode: 'sandbox' | 'live';
  /** the service's injected clock (default: the system clock) */
  clock?: Clock;
  publicUrl: string;
  pgone: { merchantCode: string; apiKey: string; baseUrl: string };
  pgtwo: { callbackSecret: string; apiKey: string; baseUrl: string };
}

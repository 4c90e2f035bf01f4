import { PgOneGateway } from './pgone.js';
import { PgTwoGateway } from './pgtwo.js';
import type { GatewayConfig, GatewayName, HttpSend, PaymentGateway } from './types.js';

export * from './types.js';
export { PgOneGateway, PGONE_CALLBACK_PATH } from './pgone.js';
export { PgTwoGateway, PGTWO_CALLBACK_PATH, PGTWO_SIGNATURE_HEADER } from './pgtwo.js';
export { PaymentGatewayError } from './errors.js';
export { hmacSha256Hex, signatureMatches, gatewayAmount } from './signatures.js';

/** fetch-based transport for the live adapters (10 s timeout). */
export const fetchSend: HttpSend = async (req) => {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body };
};

export type PaymentGateways = ReadonlyMap<GatewayName, PaymentGateway>;

export function createPaymentGateways(config: GatewayConfig, send: HttpSend = fetchSend): PaymentGateways {
  return new Map<GatewayName, PaymentGateway>([
    ['pgone', new PgOneGateway(config, send)],
    ['pgtwo', new PgTwoGateway(config, send)],
  ]);
}

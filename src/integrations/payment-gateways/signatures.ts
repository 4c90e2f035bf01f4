import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256. */
export function hmacSha256Hex(key: string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}

/**
 * Constant-time comparison of a received signature with the expected one. Byte lengths are
 * compared first (timingSafeEqual needs equal lengths; the expected length is public anyway).
 * Case matters: the signature is lowercase hex.
 */
export function signatureMatches(expected: string, received: unknown): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/** The amount as gateways write it: "10000" for whole amounts, else "10000.50". */
export function gatewayAmount(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return /^0*$/.test(fraction) ? whole! : `${whole}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/** A decimal amount a gateway may send: digits with up to 2 decimals. */
export const GATEWAY_AMOUNT = /^\d{1,16}(\.\d{1,2})?$/;

/** A short deterministic number from an id: sandbox VA numbers. */
export function digitsOf(id: string, length: number): string {
  const hex = createHmac('sha256', 'sandbox').update(id).digest('hex');
  return BigInt(`0x${hex}`).toString().slice(0, length).padStart(length, '0');
}

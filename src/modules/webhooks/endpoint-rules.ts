import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../platform/errors.js';
import { ipLiteralOf, isPublicAddress } from './outbound-guard.js';

export const MAX_URL_LENGTH = 2048;

/**
 * An endpoint URL as stored: https (http only outside production), no credentials or fragment,
 * and, with the outbound guard on, not an IP literal outside the public address space. Host names
 * are checked at every delivery instead (what a name resolves to can change).
 */
export function checkEndpointUrl(raw: string, rules: { production: boolean; allowPrivateTargets: boolean }): string {
  const fail = (message: string) => new ValidationError('Invalid endpoint URL', [{ field: 'url', message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !rules.production)) throw fail(rules.production ? 'must be https' : 'must be https or http');
  if (url.username || url.password) throw fail('must not carry credentials: authenticate deliveries by their signature');
  if (url.hash) throw fail('must not have a fragment');
  const literal = ipLiteralOf(url);
  if (!rules.allowPrivateTargets && literal !== undefined && !isPublicAddress(literal)) throw fail(`${literal} is not a public address`);
  const normalized = url.toString();
  if (normalized.length > MAX_URL_LENGTH) throw fail(`at most ${MAX_URL_LENGTH} characters`);
  return normalized;
}

/** A signing secret in the Standard Webhooks form: `whsec_` + 32 random bytes in base64. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

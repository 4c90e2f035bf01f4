import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;

function totpFor(secretBase32: string, label = 'account', issuer = 'Cloud Platform'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUrl(secretBase32: string, label: string, issuer: string): string {
  return totpFor(secretBase32, label, issuer).toString();
}

/**
 * Checks a 6-digit code at `now` with a window of ±1 step. Returns the time step the code belongs
 * to (so a caller can refuse a second use of the same step), or null.
 */
export function matchTotp(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code for `now` (tests and tools). */
export function totpCode(secretBase32: string, now: Date): string {
  return totpFor(secretBase32).generate({ timestamp: now.getTime() });
}

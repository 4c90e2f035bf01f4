import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque secret for links and refresh tokens (256 bits, base64url). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How opaque tokens are kept at rest: SHA-256 hex (they carry 256 bits, no salt needed). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacHex(key: string | Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A numeric one-time code such as `042917`. */
export function randomDigits(length = 6): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String(randomInt(10));
  return s;
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A recovery code like `a1b2c-3d4e5` from a secure random source. */
export function randomRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-[a-z0-9]{5}$/;

/** Salted hash of a recovery code: HMAC-SHA256 keyed with a per-code random salt. */
export function hashRecoveryCode(code: string, salt: string): string {
  return hmacHex(Buffer.from(salt, 'hex'), code.toLowerCase());
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** A stored recovery code: its salted hash and the first characters shown as a hint. */
export interface StoredRecoveryCode {
  salt: string;
  codeHash: string;
  hint: string;
}

/** `count` new recovery codes: the codes to show once, and the rows to keep (customers and staff). */
export function newRecoveryCodes(count: number): { codes: string[]; rows: StoredRecoveryCode[] } {
  const codes = Array.from({ length: count }, () => randomRecoveryCode());
  const rows = codes.map((code) => {
    const salt = newSalt();
    return { salt, codeHash: hashRecoveryCode(code, salt), hint: code.slice(0, 3) };
  });
  return { codes, rows };
}

/** The unused stored code that `code` is, if any. */
export function findRecoveryCode<T extends { salt: string; codeHash: string; usedAt: Date | null }>(code: string, stored: T[]): T | undefined {
  return stored.find((c) => c.usedAt === null && safeEqualHex(hashRecoveryCode(code, c.salt), c.codeHash));
}

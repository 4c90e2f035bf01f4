import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import baseX from 'base-x';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = baseX(BASE62);

/** What every personal access token starts with: secret scanners and support recognise it by this. */
export const TOKEN_PREFIX = 'chp_pat_';
/** Random base62 characters (≈178 bits). */
const RANDOM_LENGTH = 30;
/** CRC32 of the random part, base62, left-padded: 62^6 > 2^32. */
const CHECKSUM_LENGTH = 6;
/** How many characters of a token lists show: the prefix and 4 random characters. */
const DISPLAY_LENGTH = TOKEN_PREFIX.length + 4;

/** `chp_pat_` + 30 random base62 characters + 6 characters of their CRC32 (GitHub's layout). */
export const TOKEN_PATTERN = /^chp_pat_[0-9A-Za-z]{36}$/;

function checksumOf(random: string): string {
  const crc = crc32(random) >>> 0;
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc);
  return base62.encode(bytes).padStart(CHECKSUM_LENGTH, '0');
}

export interface NewTokenSecret {
  /** shown once, never stored */
  secret: string;
  /** SHA-256 hex of the secret: what the database keeps */
  hash: string;
  /** the first characters, to tell tokens apart in lists */
  displayPrefix: string;
}

export function newTokenSecret(): NewTokenSecret {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const secret = `${TOKEN_PREFIX}${random}${checksumOf(random)}`;
  return { secret, hash: hashTokenSecret(secret), displayPrefix: secret.slice(0, DISPLAY_LENGTH) };
}

/**
 * True when `text` has the token layout and its checksum holds: a typo or a truncated paste is
 * refused without a database read, and a scanner can tell a real token from look-alike text.
 */
export function isWellFormedToken(text: string): boolean {
  if (!TOKEN_PATTERN.test(text)) return false;
  const random = text.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH);
  return text.slice(TOKEN_PREFIX.length + RANDOM_LENGTH) === checksumOf(random);
}

/** Tokens carry ~178 random bits: an unsalted SHA-256 is enough to keep them at rest. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

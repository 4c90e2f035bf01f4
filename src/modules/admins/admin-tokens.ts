import { randomInt } from 'node:crypto';
import { signJwt, verifyJwt } from '../../platform/crypto/index.js';

/**
 * Backoffice access tokens: HS256 JWTs (platform/crypto/jwt.ts) with typ 'bo_access', so a
 * customer token signed with the same secret is never accepted here (and the reverse).
 */
export const BO_ACCESS_TYP = 'bo_access';
export const ACCESS_TTL_SECONDS = 15 * 60;
export const BO_CHALLENGE_TYP = 'bo_mfa_challenge';
/** A staff login waits this long for its second factor. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export interface AdminAccessClaims {
  typ: typeof BO_ACCESS_TYP;
  sub: string;
  sid: string;
  role: string;
  perms: string[];
  iat: number;
  exp: number;
}

export class AdminTokens {
  constructor(private readonly secret: string) {}

  issueAccess(p: { adminId: number; sessionId: string; role: string; permissions: string[]; now: Date }): string {
    return signJwt(this.secret, { typ: BO_ACCESS_TYP, sub: String(p.adminId), sid: p.sessionId, role: p.role, perms: p.permissions }, p.now, ACCESS_TTL_SECONDS);
  }

  /** After a right password of an admin with 2FA on: names the admin for the second step (5 minutes). */
  issueChallenge(adminId: number, now: Date): string {
    return signJwt(this.secret, { typ: BO_CHALLENGE_TYP, sub: String(adminId) }, now, CHALLENGE_TTL_SECONDS);
  }

  verifyChallenge(token: string | undefined, now: Date): number | undefined {
    const claims = verifyJwt(this.secret, token, BO_CHALLENGE_TYP, now);
    return claims && /^\d+$/.test(claims.sub) ? Number(claims.sub) : undefined;
  }

  /** The claims of a valid, unexpired backoffice access token; undefined for anything else. */
  verifyAccess(token: string, now: Date): AdminAccessClaims | undefined {
    const claims = verifyJwt(this.secret, token, BO_ACCESS_TYP, now);
    if (!claims || !/^\d+$/.test(claims.sub)) return undefined;
    if (typeof claims.sid !== 'string' || typeof claims.role !== 'string' || !Array.isArray(claims.perms)) return undefined;
    if (!claims.perms.every((p) => typeof p === 'string')) return undefined;
    return claims as unknown as AdminAccessClaims;
  }
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!@#$%^&*-_=+?';

const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;

/** A 20-character password that satisfies the password rule (all four classes). */
export function generatePassword(length = 20): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

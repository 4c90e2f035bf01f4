import type { Clock } from '../../platform/clock.js';
import { signJwt, verifyJwt } from '../../platform/crypto/index.js';

/** Lifetimes (docs/decisions.md §2). */
export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
/** An impersonated session ends this long after staff opened it, however it is used. */
export const IMPERSONATION_TTL_SECONDS = 60 * 60;
export const CHALLENGE_TTL_SECONDS = 5 * 60;
export const SUDO_TTL_SECONDS = 5 * 60;

/**
 * The `typ` claim of each customer token kind. Backoffice tokens use their own `bo_` kinds and
 * cookie names, so no token can stand in for another.
 */
export const TokenKind = { access: 'access', challenge: 'mfa_challenge', sudo: 'sudo' } as const;

export interface AccessClaims {
  customerId: number;
  sessionId: string;
  impersonatorAdminId?: number;
}

/** Signs and checks the customer's JWTs (HS256 with JWT_SECRET). */
export class CustomerTokens {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  access(c: AccessClaims): { token: string; expiresAt: Date } {
    const now = this.clock.now();
    const claims = { typ: TokenKind.access, sub: String(c.customerId), sid: c.sessionId, ...(c.impersonatorAdminId ? { imp: c.impersonatorAdminId } : {}) };
    return { token: signJwt(this.secret, claims, now, ACCESS_TTL_SECONDS), expiresAt: new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000) };
  }

  verifyAccess(token: string | undefined): AccessClaims | null {
    const c = verifyJwt(this.secret, token, TokenKind.access, this.clock.now());
    if (!c || typeof c.sid !== 'string' || !/^\d+$/.test(c.sub)) return null;
    return { customerId: Number(c.sub), sessionId: c.sid, ...(typeof c.imp === 'number' ? { impersonatorAdminId: c.imp } : {}) };
  }

  challenge(customerId: number, challengeId: string): string {
    return signJwt(this.secret, { typ: TokenKind.challenge, sub: String(customerId), cid: challengeId }, this.clock.now(), CHALLENGE_TTL_SECONDS);
  }

  verifyChallenge(token: string | undefined): { customerId: number; challengeId: string } | null {
    const c = verifyJwt(this.secret, token, TokenKind.challenge, this.clock.now());
    if (!c || typeof c.cid !== 'string' || !/^\d+$/.test(c.sub)) return null;
    return { customerId: Number(c.sub), challengeId: c.cid };
  }

  sudo(customerId: number, sessionId: string): { token: string; expiresAt: Date } {
    const now = this.clock.now();
    return {
      token: signJwt(this.secret, { typ: TokenKind.sudo, sub: String(customerId), sid: sessionId }, now, SUDO_TTL_SECONDS),
      expiresAt: new Date(now.getTime() + SUDO_TTL_SECONDS * 1000),
    };
  }

  /** True when the sudo token was issued to this very session. */
  verifySudo(token: string | undefined, customerId: number, sessionId: string): boolean {
    const c = verifyJwt(this.secret, token, TokenKind.sudo, this.clock.now());
    return !!c && c.sub === String(customerId) && c.sid === sessionId;
  }
}

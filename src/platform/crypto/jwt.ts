import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact HS256 JWTs. Verification accepts exactly `{"alg":"HS256","typ":"JWT"}` headers, a valid
 * HMAC under our key, an unexpired `exp` and the expected `typ` claim, so the token kinds (access,
 * 2FA challenge, sudo, backoffice...) can never stand in for each other.
 */
export interface JwtClaims {
  typ: string;
  sub: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(key: string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

export function signJwt(key: string, claims: Omit<JwtClaims, 'iat' | 'exp'>, now: Date, ttlSeconds: number): string {
  const iat = Math.floor(now.getTime() / 1000);
  const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds })).toString('base64url');
  const data = `${HEADER}.${payload}`;
  return `${data}.${sign(key, data).toString('base64url')}`;
}

export function verifyJwt(key: string, token: string | undefined, expectedTyp: string, now: Date): JwtClaims | null {
  if (!token || token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (h.alg !== 'HS256' || (h.typ !== undefined && h.typ !== 'JWT') || Object.keys(h).some((k) => k !== 'alg' && k !== 'typ')) return null;
    const expected = sign(key, `${header}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JwtClaims;
    if (claims.typ !== expectedTyp || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    if (claims.exp <= Math.floor(now.getTime() / 1000)) return null;
    return claims;
  } catch {
    return null;
  }
}

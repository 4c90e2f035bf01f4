import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TTL_SECONDS, CHALLENGE_TTL_SECONDS } from './auth.tokens.js';
import type { ClientMeta, IssuedSession } from './sessions.service.js';

/** Customer cookie names; the backoffice uses its own (bo_...). */
export const CookieName = { access: 'access_token', refresh: 'refresh_token', challenge: 'mfa_challenge' } as const;

function base(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
}

/** Sets the full customer cookies of an issued session (login, 2FA, refresh, impersonation, e-mail change). */
export function setSessionCookies(reply: FastifyReply, session: IssuedSession, secure: boolean): void {
  reply.setCookie(CookieName.access, session.accessToken, { ...base(secure), maxAge: ACCESS_TTL_SECONDS });
  reply.setCookie(CookieName.refresh, session.refreshToken, { ...base(secure), maxAge: session.refreshMaxAgeSeconds });
  reply.clearCookie(CookieName.challenge, base(secure));
}

export function setChallengeCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(CookieName.challenge, token, { ...base(secure), maxAge: CHALLENGE_TTL_SECONDS });
  reply.clearCookie(CookieName.access, base(secure));
  reply.clearCookie(CookieName.refresh, base(secure));
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  for (const name of Object.values(CookieName)) reply.clearCookie(name, base(secure));
}

export function clientMeta(request: FastifyRequest): ClientMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}

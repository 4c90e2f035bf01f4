import type { SessionEntry } from './sessions.service.js';
import type { RecoveryCodeHint } from './two-factor.service.js';

/* The auth module's answers (sessions, two-factor, sudo, e-mail change), mapped in one place. */

/** A live device session; `current` marks the one of the request. */
export function sessionView(s: SessionEntry) {
  return {
    id: s.id,
    ip: s.ip,
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_access_at: s.lastAccessAt.toISOString(),
    current: s.current,
    impersonated: s.impersonated,
  };
}

/** A short-lived token (sudo, an e-mail change's verified step) and when it expires. */
export function stepTokenView(t: { token: string; expiresAt: Date }) {
  return { token: t.token, expires_at: t.expiresAt.toISOString() };
}

export function otpSentView(expiresAt: Date) {
  return { expires_at: expiresAt.toISOString() };
}

export function generatedSecretView(g: { secret: string; otpauthUrl: string; qrCode: string }) {
  return { secret: g.secret, otpauth_url: g.otpauthUrl, qr_code: g.qrCode };
}

export function recoveryCodesView(codes: string[]) {
  return { recovery_codes: codes };
}

export function recoveryListView(codes: RecoveryCodeHint[]) {
  return { remaining: codes.filter((c) => c.usedAt === null).length, codes: codes.map((c) => ({ hint: c.hint, used: c.usedAt !== null })) };
}

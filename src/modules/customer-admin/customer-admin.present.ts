import { sessionView, type IssuedSession, type SessionEntry } from '../auth/index.js';
import type { CustomerResourceRow } from './customer-resources.repository.js';

/* Customer administration's own answers, mapped in one place (the customer list and detail are the customers module's views). */

export function customerResourceView(r: CustomerResourceRow) {
  return { ...r, created_at: new Date(r.created_at).toISOString() };
}

/** A live device session as staff see it (which one is "current" means nothing to them). */
export function deviceSessionView(s: SessionEntry) {
  const { current: _, ...view } = sessionView(s);
  return view;
}

export function maxSessionView(customerId: number, maxSession: number, sessionsRevoked: number) {
  return { customer_id: customerId, max_session: maxSession, sessions_revoked: sessionsRevoked };
}

export function twoFactorOffView(customerId: number) {
  return { customer_id: customerId, is_2fa_active: false };
}

export function impersonationView(issued: IssuedSession) {
  return { customer_id: issued.customerId, session_id: issued.sessionId, expires_at: issued.refreshExpiresAt.toISOString() };
}

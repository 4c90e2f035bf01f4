import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request has written to the audit log so far. The backoffice surface opens a scope per
 * request; the audit service marks it whenever it records an entry; after a successful write the
 * surface records a generic entry only when nothing richer was recorded (one audit hook, no double
 * entries).
 */
export interface AuditScope {
  recorded: number;
  /** Where the request came from, for entries recorded by services that do not see the request. */
  origin?: AuditOrigin;
}

export interface AuditOrigin {
  ip?: string;
  userAgent?: string;
  /** the admin behind an impersonated customer session */
  impersonatorAdminId?: number;
}

const scopes = new AsyncLocalStorage<AuditScope>();

export function newAuditScope(origin?: AuditOrigin): AuditScope {
  return { recorded: 0, ...(origin ? { origin } : {}) };
}

/** The origin of the request being served, when its surface opened a scope. */
export function currentAuditOrigin(): AuditOrigin | undefined {
  return scopes.getStore()?.origin;
}


/** Runs `fn` (and everything it starts) in `scope`. */
export function runInAuditScope(scope: AuditScope, fn: () => void): void {
  scopes.run(scope, fn);
}

/** Called by the audit service for every entry it records. */
export function noteAuditEntry(): void {
  const scope = scopes.getStore();
  if (scope) scope.recorded += 1;
}

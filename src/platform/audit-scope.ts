import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request has written to the audit log so far. The backoffice surface opens a scope per
 * request; the audit service marks it whenever it records an entry; after a successful write the
 * surface records a generic entry only when nothing richer was recorded (one audit hook, no double
 * entries).
 */
export interface AuditScope {
  recorded: number;
}

const scopes = new AsyncLocalStorage<AuditScope>();

export function newAuditScope(): AuditScope {
  return { recorded: 0 };
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

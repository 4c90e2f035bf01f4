import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Why an entry is written to the audit log. Every entry goes through one writer
 * (`AuditLog.write`, platform/audit-log.ts, which the audit module's AuditService implements) and
 * names its kind; the kind, not the writer, decides what the entry stands for:
 * - `change`: a service describes the change it made (its own action, with before and after),
 *   in the transaction of that change; SecurityEvents' entries of the auth services are these;
 * - `surface`: a surface's entry for a successful write that no service described (the
 *   backoffice's generic `config.audit` entry, the auth routes' back-up security event);
 * - `activity`: the customer activity entry of a signed-in customer write (platform/http/activity.ts);
 * - `trail`: the record of a request made in an impersonated customer session (every request).
 */
export type AuditKind = 'change' | 'surface' | 'activity' | 'trail';

/** What one request has written to the audit log so far, and where it came from. */
export interface AuditScope {
  /** the `change` entries written while serving the request; only these describe its change */
  changes: number;
  /** Where the request came from, for entries recorded by services that do not see the request. */
  origin?: AuditOrigin;
  /** A customer write's activity entry, written by the first transaction the request commits. */
  activity?: PendingActivity;
}

/**
 * The rule of every surface entry: after a successful write, a surface writes its own entry
 * (backoffice `config.audit`, a signed-in auth route's `config.securityEvent`) exactly when no
 * service wrote a `change` entry while serving the request. A service's entry is the richer one
 * (its own action, before and after), so the two never describe one change twice. Entries of the
 * other kinds (the impersonation trail, the activity entry, another surface entry) do not count.
 */
export function surfaceEntryDue(scope: AuditScope | undefined): boolean {
  return (scope?.changes ?? 0) === 0;
}

export interface PendingActivity {
  /** written (in a transaction, or by the surface's back-up after the answer) */
  recorded: boolean;
  /** the request only replayed an earlier answer (Idempotency-Key): nothing to record */
  replay: boolean;
  /** the id of what the request created, when a service names it (params name the others) */
  targetId?: string;
  write(tx: unknown): Promise<void>;
}

export interface AuditOrigin {
  ip?: string;
  userAgent?: string;
  /** the admin behind an impersonated customer session */
  impersonatorAdminId?: number;
}

const scopes = new AsyncLocalStorage<AuditScope>();

export function newAuditScope(origin?: AuditOrigin): AuditScope {
  return { changes: 0, ...(origin ? { origin } : {}) };
}

/** The origin of the request being served, when its surface opened a scope. */
export function currentAuditOrigin(): AuditOrigin | undefined {
  return scopes.getStore()?.origin;
}


/** Runs `fn` (and everything it starts) in `scope`. */
export function runInAuditScope(scope: AuditScope, fn: () => void): void {
  scopes.run(scope, fn);
}

/** Called by the one writer (AuditService.write) for every entry it writes, with the entry's kind. */
export function noteAuditEntry(kind: AuditKind): void {
  const scope = scopes.getStore();
  if (scope && kind === 'change') scope.changes += 1;
}

/**
 * A service names what the current customer write created (its id is not in the path), for the
 * activity record; call it inside the transaction that creates it. Outside a customer write it
 * does nothing.
 */
export function noteActivityTarget(id: string | number): void {
  const activity = scopes.getStore()?.activity;
  if (activity && !activity.recorded) activity.targetId = String(id);
}

/** The request replays an earlier answer (Idempotency-Key) and changes nothing: no activity entry. */
export function noteActivityReplay(): void {
  const activity = scopes.getStore()?.activity;
  if (activity) activity.replay = true;
}

/** Called by the ambient transaction just before an outermost transaction commits. */
export async function writePendingActivity(tx: unknown): Promise<void> {
  const activity = scopes.getStore()?.activity;
  if (!activity || activity.recorded || activity.replay) return;
  activity.recorded = true;
  try {
    await activity.write(tx);
  } catch (err) {
    activity.recorded = false;
    throw err;
  }
}

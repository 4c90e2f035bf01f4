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
  /** A customer write's activity entry, written by the first transaction the request commits. */
  activity?: PendingActivity;
}

/**
 * The activity record of one customer write (platform/http/activity.ts). The ambient transaction
 * writes it just before the request's first outermost transaction commits, so it exists exactly
 * when that change does.
 */
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

import type { AuditEntry, AuditLog } from '../../platform/audit-log.js';
import { noteAuditEntry, type AuditKind } from '../../platform/audit-scope.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import type { AuditFilter, AuditRepository, AuditRow } from './audit.repository.js';

export { SYSTEM_ACTOR, type Actor, type AuditEntry } from '../../platform/audit-log.js';

/**
 * The audit trail and its one writer (`write`, the platform's AuditLog port): every entry of the
 * log, whoever writes it, is inserted here. `record` is a service's entry for the change it made
 * (kind `change`), given the transaction of that change, so the entry exists exactly when the
 * change does. Never put secrets (hashes, tokens, passwords) in before/after.
 */
/** The e-mail addresses of people (customers) by id: who did what in an account's activity log. */
export interface PeopleEmails {
  emailsOf(ids: number[]): Promise<Map<number, string>>;
}

export class AuditService implements AuditLog {
  constructor(
    private readonly db: Database,
    private readonly repo: AuditRepository,
    private readonly clock: Clock,
    private readonly people: PeopleEmails,
  ) {}

  /** A service's entry for the change it made, in the transaction of that change. */
  record(tx: Executor, entry: AuditEntry): Promise<void> {
    return this.write(tx, entry, 'change');
  }

  /** Writes one entry of `kind` on `ex` (a transaction), or on the ambient database when undefined. */
  async write(ex: unknown, entry: AuditEntry, kind: AuditKind): Promise<void> {
    await this.repo.insert((ex as Executor | undefined) ?? this.db, {
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      impersonatorAdminId: entry.actor.impersonatorAdminId ?? null,
      memberId: entry.actor.memberId ?? null,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined ? null : String(entry.targetId),
      before: entry.before ?? null,
      after: entry.after ?? null,
      ip: entry.actor.ip ?? null,
      userAgent: entry.actor.userAgent?.slice(0, 500) ?? null,
      createdAt: this.clock.now(),
    });
    noteAuditEntry(kind);
  }

  list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>> {
    return this.repo.list(this.db, filter, page.limit, offsetOf(page));
  }

  /** The customer's own activity log (GET /api/activity): their writes and security events. */
  async activityOf(customerId: number, page: PageRequest): Promise<Page<AuditRow & { byEmail: string | null }>> {
    const { items, total } = await this.repo.activityOf(this.db, customerId, page.limit, offsetOf(page));
    // who did it: the member named in the entry, else the account holder
    const by = (r: AuditRow) => r.memberId ?? r.actorId;
    const emails = await this.people.emailsOf([...new Set(items.map(by).filter((id): id is number => id !== null))]);
    return { items: items.map((r) => ({ ...r, byEmail: emails.get(by(r)!) ?? null })), total };
  }
}

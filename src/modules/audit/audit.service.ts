import { noteAuditEntry } from '../../platform/audit-scope.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import type { AuditFilter, AuditRepository, AuditRow } from './audit.repository.js';

/** Who did something, from where. Built from the request by `actorOf` (audit.context.ts). */
export interface Actor {
  type: 'admin' | 'customer' | 'system' | 'anonymous';
  id: number | null;
  /** the admin behind an impersonated customer session */
  impersonatorAdminId?: number;
  ip?: string;
  userAgent?: string;
}

export interface AuditEntry {
  actor: Actor;
  /** dotted verb, e.g. admin.login, admin.role_changed, settings.updated */
  action: string;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null };

/**
 * The audit trail. `record` takes the transaction of the change it describes, so the entry
 * exists exactly when the change does. Never put secrets (hashes, tokens, passwords) in before/after.
 */
export class AuditService {
  constructor(
    private readonly db: Database,
    private readonly repo: AuditRepository,
    private readonly clock: Clock,
  ) {}

  async record(tx: Executor, entry: AuditEntry): Promise<void> {
    await this.repo.insert(tx, {
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      impersonatorAdminId: entry.actor.impersonatorAdminId ?? null,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined ? null : String(entry.targetId),
      before: entry.before ?? null,
      after: entry.after ?? null,
      ip: entry.actor.ip ?? null,
      userAgent: entry.actor.userAgent?.slice(0, 500) ?? null,
      createdAt: this.clock.now(),
    });
    noteAuditEntry();
  }

  list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>> {
    return this.repo.list(this.db, filter, page.limit, offsetOf(page));
  }

  /** The customer's own activity log (GET /api/activity): their writes and security events. */
  activityOf(customerId: number, page: PageRequest): Promise<Page<AuditRow>> {
    return this.repo.activityOf(this.db, customerId, page.limit, offsetOf(page));
  }
}

import { and, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { auditLogs } from './audit.tables.js';

export type AuditRow = typeof auditLogs.$inferSelect;
export type NewAuditRow = typeof auditLogs.$inferInsert;

export interface AuditFilter {
  actorType?: string;
  actorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
}

/** The per-request trail of impersonated sessions: not an action of its own, left out of the customer's activity. */
const IMPERSONATION_REQUEST = 'impersonation.request';

export class AuditRepository {
  async insert(ex: Executor, row: NewAuditRow): Promise<void> {
    await ex.insert(auditLogs).values(row);
  }

  private where(f: AuditFilter): SQL | undefined {
    return and(
      f.actorType !== undefined ? eq(auditLogs.actorType, f.actorType) : undefined,
      f.actorId !== undefined ? eq(auditLogs.actorId, f.actorId) : undefined,
      f.action !== undefined ? eq(auditLogs.action, f.action) : undefined,
      f.targetType !== undefined ? eq(auditLogs.targetType, f.targetType) : undefined,
      f.targetId !== undefined ? eq(auditLogs.targetId, f.targetId) : undefined,
    );
  }

  /** What a customer did (in their own sessions or through impersonation), newest first. */
  async activityOf(ex: Executor, customerId: number, limit: number, offset: number): Promise<{ items: AuditRow[]; total: number }> {
    const where = and(eq(auditLogs.actorType, 'customer'), eq(auditLogs.actorId, customerId), ne(auditLogs.action, IMPERSONATION_REQUEST));
    const items = await ex.select().from(auditLogs).where(where).orderBy(desc(auditLogs.id)).limit(limit).offset(offset);
    const [row] = await ex.select({ n: count() }).from(auditLogs).where(where);
    return { items, total: row?.n ?? 0 };
  }

  async list(ex: Executor, f: AuditFilter, limit: number, offset: number): Promise<{ items: AuditRow[]; total: number }> {
    const where = this.where(f);
    const items = await ex.select().from(auditLogs).where(where).orderBy(desc(auditLogs.id)).limit(limit).offset(offset);
    const [row] = await ex.select({ n: count() }).from(auditLogs).where(where);
    return { items, total: row?.n ?? 0 };
  }
}

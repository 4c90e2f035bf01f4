import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { auditLogs } from './audit.tables.js';

export type AuditRow = typeof auditLogs.$inferSelect;
export type NewAuditRow = typeof auditLogs.$inferInsert;

export interface AuditFilter {
  actorId?: number;
  action?: string;
  targetType?: string;
}

export class AuditRepository {
  async insert(ex: Executor, row: NewAuditRow): Promise<void> {
    await ex.insert(auditLogs).values(row);
  }

  private where(f: AuditFilter): SQL | undefined {
    return and(
      f.actorId !== undefined ? eq(auditLogs.actorId, f.actorId) : undefined,
      f.action !== undefined ? eq(auditLogs.action, f.action) : undefined,
      f.targetType !== undefined ? eq(auditLogs.targetType, f.targetType) : undefined,
    );
  }

  async list(ex: Executor, f: AuditFilter, limit: number, offset: number): Promise<{ items: AuditRow[]; total: number }> {
    const where = this.where(f);
    const items = await ex.select().from(auditLogs).where(where).orderBy(desc(auditLogs.id)).limit(limit).offset(offset);
    const [row] = await ex.select({ n: count() }).from(auditLogs).where(where);
    return { items, total: row?.n ?? 0 };
  }
}

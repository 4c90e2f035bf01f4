import { and, asc, count, desc, eq, isNotNull, lte, ne } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { announcements, type DocumentKind, type DocumentStatus } from './announcements.tables.js';

export type AnnouncementRow = typeof announcements.$inferSelect;

export class AnnouncementsRepository {
  async insert(ex: Executor, row: typeof announcements.$inferInsert): Promise<AnnouncementRow> {
    const [out] = await ex.insert(announcements).values(row).returning();
    return out!;
  }

  async lock(ex: Executor, kind: DocumentKind, id: number): Promise<AnnouncementRow | undefined> {
    const [row] = await ex
      .select()
      .from(announcements)
      .where(and(eq(announcements.kind, kind), eq(announcements.id, id)))
      .for('update');
    return row;
  }

  async find(ex: Executor, kind: DocumentKind, id: number): Promise<AnnouncementRow | undefined> {
    const [row] = await ex.select().from(announcements).where(and(eq(announcements.kind, kind), eq(announcements.id, id)));
    return row;
  }

  async update(ex: Executor, id: number, patch: Partial<typeof announcements.$inferInsert>): Promise<AnnouncementRow> {
    const [row] = await ex.update(announcements).set(patch).where(eq(announcements.id, id)).returning();
    return row!;
  }

  async delete(ex: Executor, id: number): Promise<void> {
    await ex.delete(announcements).where(eq(announcements.id, id));
  }

  async list(ex: Executor, kind: DocumentKind, p: PageRequest, status?: DocumentStatus): Promise<Page<AnnouncementRow>> {
    const where = status ? and(eq(announcements.kind, kind), eq(announcements.status, status)) : eq(announcements.kind, kind);
    const items = await ex.select().from(announcements).where(where).orderBy(desc(announcements.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(announcements).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** What customers see: Published only, newest publication first. */
  async listPublished(ex: Executor, kind: DocumentKind, p: PageRequest): Promise<Page<AnnouncementRow>> {
    const where = and(eq(announcements.kind, kind), eq(announcements.status, 'Published'));
    const items = await ex
      .select()
      .from(announcements)
      .where(where)
      .orderBy(desc(announcements.publishedAt), desc(announcements.id))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(announcements).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Scheduled documents whose time has come, oldest first, locked (SKIP LOCKED: parallel workers split them). */
  async lockDue(ex: Executor, now: Date, limit: number): Promise<AnnouncementRow[]> {
    return ex
      .select()
      .from(announcements)
      .where(and(ne(announcements.status, 'Published'), isNotNull(announcements.publishAt), lte(announcements.publishAt, now)))
      .orderBy(asc(announcements.publishAt))
      .limit(limit)
      .for('update', { skipLocked: true });
  }
}

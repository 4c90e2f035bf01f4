import { and, count, desc, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { notifications } from './notifications.tables.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

export class NotificationsRepository {
  /** Inserts unless the same event was already notified; undefined when it was. */
  async insert(ex: Executor, row: NewNotification): Promise<NotificationRow | undefined> {
    const [out] = await ex.insert(notifications).values(row).onConflictDoNothing().returning();
    return out;
  }

  /** Several notifications in one statement (a batch of events); repeats are skipped. Returns how many were new. */
  async insertMany(ex: Executor, rows: NewNotification[]): Promise<number> {
    if (rows.length === 0) return 0;
    const out = await ex.insert(notifications).values(rows).onConflictDoNothing().returning({ id: notifications.id });
    return out.length;
  }

  /** One notification for every active customer (an announcement), in one statement; returns how many were new. */
  async insertForAllCustomers(
    ex: Executor,
    n: { kind: string; title: string; body: string; referenceType: string; referenceId: string; createdAt: Date },
  ): Promise<number> {
    const rows = await queryRows<{ id: number }>(
      ex,
      sql`insert into ${notifications} (customer_id, kind, title, body, reference_type, reference_id, created_at)
          select ${customers.id}, ${n.kind}, ${n.title}, ${n.body}, ${n.referenceType}, ${n.referenceId}, ${n.createdAt.toISOString()}::timestamptz
          from ${customers} where ${customers.isActive}
          on conflict do nothing
          returning id`,
    );
    return rows.length;
  }

  async list(ex: Executor, customerId: number, p: PageRequest, unreadOnly: boolean): Promise<Page<NotificationRow>> {
    const where = unreadOnly ? and(eq(notifications.customerId, customerId), isNull(notifications.readAt)) : eq(notifications.customerId, customerId);
    const items = await ex.select().from(notifications).where(where).orderBy(desc(notifications.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(notifications).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async unreadCount(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  }

  /** The same count as a scalar subquery on a customer id column, for another module's read to carry. */
  unreadCountOf(customerId: AnyColumn): SQL<number> {
    return sql<number>`(select count(*)::int from ${notifications} where ${notifications.customerId} = ${customerId} and ${notifications.readAt} is null)`;
  }

  async find(ex: Executor, customerId: number, id: number): Promise<NotificationRow | undefined> {
    const [row] = await ex.select().from(notifications).where(and(eq(notifications.customerId, customerId), eq(notifications.id, id)));
    return row;
  }

  async markRead(ex: Executor, customerId: number, id: number, at: Date): Promise<NotificationRow | undefined> {
    await ex
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.customerId, customerId), eq(notifications.id, id), isNull(notifications.readAt)));
    return this.find(ex, customerId, id);
  }

  async markAllRead(ex: Executor, customerId: number, at: Date): Promise<number> {
    const rows = await ex
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    return rows.length;
  }
}

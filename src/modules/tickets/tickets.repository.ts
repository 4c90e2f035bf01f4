import { and, asc, count, desc, eq, gt, lte, ne, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { lockGlobal } from '../../platform/db/advisory-locks.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { admins, rolePermissions } from '../admins/admins.tables.js';
import { customers } from '../customers/customers.tables.js';
import {
  ticketAttachments,
  ticketEventHorizon,
  ticketEvents,
  ticketMessages,
  tickets,
  type TicketEventType,
  type TicketPriority,
  type TicketStatus,
} from './tickets.tables.js';

export type TicketRow = typeof tickets.$inferSelect;
export type TicketMessageRow = typeof ticketMessages.$inferSelect;
export type TicketEventRow = typeof ticketEvents.$inferSelect;

export interface TicketDetailRow extends TicketRow {
  customerEmail: string;
  customerFirstName: string;
  customerLastName: string;
  assignedAdminName: string | null;
  messageCount: number;
}

export interface AttachmentMeta {
  id: string;
  messageId: number;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

export interface MessageWithSender extends TicketMessageRow {
  senderName: string;
  attachments: AttachmentMeta[];
}

export interface StaffTicketFilter {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignedAdminId?: number;
  unassigned?: boolean;
  customerId?: number;
  search?: string;
}

const detailColumns = {
  id: tickets.id,
  customerId: tickets.customerId,
  title: tickets.title,
  status: tickets.status,
  priority: tickets.priority,
  assignedAdminId: tickets.assignedAdminId,
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
  lastMessageAt: tickets.lastMessageAt,
  closedAt: tickets.closedAt,
  archivedAt: tickets.archivedAt,
  customerEmail: customers.email,
  customerFirstName: customers.firstName,
  customerLastName: customers.lastName,
  assignedAdminName: admins.name,
  messageCount: sql<number>`(select count(*)::int from ${ticketMessages} where ${ticketMessages.ticketId} = ${tickets.id})`,
};

const attachmentMetaColumns = {
  id: ticketAttachments.id,
  messageId: ticketAttachments.messageId,
  filename: ticketAttachments.filename,
  contentType: ticketAttachments.contentType,
  sizeBytes: ticketAttachments.sizeBytes,
  sha256: ticketAttachments.sha256,
};

export class TicketsRepository {
  async insertTicket(ex: Executor, row: typeof tickets.$inferInsert): Promise<TicketRow> {
    const [out] = await ex.insert(tickets).values(row).returning();
    return out!;
  }

  async insertMessage(ex: Executor, row: typeof ticketMessages.$inferInsert): Promise<TicketMessageRow> {
    const [out] = await ex.insert(ticketMessages).values(row).returning();
    return out!;
  }

  async insertAttachments(ex: Executor, rows: (typeof ticketAttachments.$inferInsert)[]): Promise<AttachmentMeta[]> {
    if (rows.length === 0) return [];
    return ex.insert(ticketAttachments).values(rows).returning(attachmentMetaColumns);
  }

  /** Locks the ticket row until the transaction ends. */
  async lock(ex: Executor, id: number): Promise<TicketRow | undefined> {
    const [row] = await ex.select().from(tickets).where(eq(tickets.id, id)).for('update');
    return row;
  }

  async update(ex: Executor, id: number, patch: Partial<typeof tickets.$inferInsert>): Promise<void> {
    await ex.update(tickets).set(patch).where(eq(tickets.id, id));
  }

  async detail(ex: Executor, id: number, customerId?: number): Promise<TicketDetailRow | undefined> {
    const where = customerId === undefined ? eq(tickets.id, id) : and(eq(tickets.id, id), eq(tickets.customerId, customerId));
    const [row] = await ex
      .select(detailColumns)
      .from(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customerId))
      .leftJoin(admins, eq(admins.id, tickets.assignedAdminId))
      .where(where);
    return row;
  }

  async listForCustomer(ex: Executor, customerId: number, p: PageRequest, status?: TicketStatus): Promise<Page<TicketDetailRow>> {
    const where = status ? and(eq(tickets.customerId, customerId), eq(tickets.status, status)) : eq(tickets.customerId, customerId);
    return this.page(ex, where, p);
  }

  async listForStaff(ex: Executor, f: StaffTicketFilter, p: PageRequest): Promise<Page<TicketDetailRow>> {
    const conditions: SQL[] = [];
    // Archived tickets are left out unless asked for.
    conditions.push(f.status ? eq(tickets.status, f.status) : ne(tickets.status, 'Archived'));
    if (f.priority) conditions.push(eq(tickets.priority, f.priority));
    if (f.assignedAdminId !== undefined) conditions.push(eq(tickets.assignedAdminId, f.assignedAdminId));
    if (f.unassigned) conditions.push(sql`${tickets.assignedAdminId} is null`);
    if (f.customerId !== undefined) conditions.push(eq(tickets.customerId, f.customerId));
    if (f.search) {
      const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(sql`(${tickets.title} ilike ${like} or ${customers.email} ilike ${like})`);
    }
    return this.page(ex, and(...conditions), p);
  }

  private async page(ex: Executor, where: SQL | undefined, p: PageRequest): Promise<Page<TicketDetailRow>> {
    const items = await ex
      .select(detailColumns)
      .from(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customerId))
      .leftJoin(admins, eq(admins.id, tickets.assignedAdminId))
      .where(where)
      .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(tickets).innerJoin(customers, eq(customers.id, tickets.customerId)).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async countsByStatus(ex: Executor): Promise<{ status: TicketStatus; n: number; unassigned: number }[]> {
    return ex
      .select({ status: tickets.status, n: sql<number>`count(*)::int`, unassigned: sql<number>`(count(*) filter (where ${tickets.assignedAdminId} is null))::int` })
      .from(tickets)
      .groupBy(tickets.status);
  }

  async messages(ex: Executor, ticketId: number): Promise<MessageWithSender[]> {
    const rows = await ex
      .select({
        id: ticketMessages.id,
        ticketId: ticketMessages.ticketId,
        senderType: ticketMessages.senderType,
        senderCustomerId: ticketMessages.senderCustomerId,
        senderAdminId: ticketMessages.senderAdminId,
        message: ticketMessages.message,
        createdAt: ticketMessages.createdAt,
        senderName: sql<string>`coalesce(${admins.name}, ${customers.firstName} || ' ' || ${customers.lastName}, '')`,
      })
      .from(ticketMessages)
      .leftJoin(admins, eq(admins.id, ticketMessages.senderAdminId))
      .leftJoin(customers, eq(customers.id, ticketMessages.senderCustomerId))
      .where(eq(ticketMessages.ticketId, ticketId))
      .orderBy(asc(ticketMessages.id));
    const files = await ex
      .select(attachmentMetaColumns)
      .from(ticketAttachments)
      .where(eq(ticketAttachments.ticketId, ticketId))
      .orderBy(asc(ticketAttachments.messageId), asc(ticketAttachments.position));
    return rows.map((m) => ({ ...m, attachments: files.filter((f) => f.messageId === m.id) }));
  }

  async senderName(ex: Executor, sender: { type: 'customer' | 'admin'; id: number }): Promise<string> {
    if (sender.type === 'admin') {
      const [row] = await ex.select({ name: admins.name }).from(admins).where(eq(admins.id, sender.id));
      return row?.name ?? '';
    }
    const [row] = await ex.select({ first: customers.firstName, last: customers.lastName }).from(customers).where(eq(customers.id, sender.id));
    return row ? `${row.first} ${row.last}` : '';
  }

  async attachment(ex: Executor, ticketId: number, attachmentId: string) {
    const [row] = await ex
      .select()
      .from(ticketAttachments)
      .where(and(eq(ticketAttachments.ticketId, ticketId), eq(ticketAttachments.id, attachmentId)));
    return row;
  }

  /** An active admin who may see tickets (a ticket is only handed to someone who can work on it). */
  async assignableAdmin(ex: Executor, adminId: number): Promise<{ id: number; name: string } | undefined> {
    const [row] = await ex
      .select({ id: admins.id, name: admins.name })
      .from(admins)
      .innerJoin(rolePermissions, and(eq(rolePermissions.roleId, admins.roleId), eq(rolePermissions.permission, 'view_tickets')))
      .where(and(eq(admins.id, adminId), sql`${admins.deletedAt} is null`));
    return row;
  }

  async customerExists(ex: Executor, customerId: number): Promise<boolean> {
    const [row] = await ex.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    return row !== undefined;
  }

  // --- the stream's log -------------------------------------------------------------------

  /**
   * Appends a stream event. The transaction-level advisory lock is held until commit, so ids
   * are handed out in commit order: nothing with a smaller id can commit later.
   */
  async appendEvent(ex: Executor, e: { type: TicketEventType; ticketId: number; payload: unknown; createdAt: Date }): Promise<number> {
    await lockGlobal(ex, 'ticketStream');
    const [row] = await ex.insert(ticketEvents).values(e).returning({ id: ticketEvents.id });
    return row!.id;
  }

  async eventsAfter(ex: Executor, afterId: number, limit: number, upTo?: number): Promise<TicketEventRow[]> {
    const where = upTo === undefined ? gt(ticketEvents.id, afterId) : and(gt(ticketEvents.id, afterId), lte(ticketEvents.id, upTo));
    return ex.select().from(ticketEvents).where(where).orderBy(asc(ticketEvents.id)).limit(limit);
  }

  async countEventsAfter(ex: Executor, afterId: number, upTo: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(ticketEvents).where(and(gt(ticketEvents.id, afterId), lte(ticketEvents.id, upTo)));
    return row?.n ?? 0;
  }

  /** The newest committed event id (or the pruning horizon when everything was pruned), 0 before the first. */
  async headEventId(ex: Executor): Promise<number> {
    const [row] = await queryRows<{ head: string | number | null }>(
      ex,
      sql`select greatest(coalesce((select max(id) from ticket_events), 0), coalesce((select pruned_through from ticket_event_horizon where id = 1), 0)) as head`,
    );
    return Number(row?.head ?? 0);
  }

  async prunedThrough(ex: Executor): Promise<number> {
    const [row] = await ex.select({ p: ticketEventHorizon.prunedThrough }).from(ticketEventHorizon).where(eq(ticketEventHorizon.id, 1));
    return row?.p ?? 0;
  }

  /** Deletes events older than `before` and moves the horizon past them; returns how many went. */
  async pruneEvents(ex: Executor, before: Date): Promise<number> {
    const gone = await ex.delete(ticketEvents).where(sql`${ticketEvents.createdAt} < ${before.toISOString()}::timestamptz`).returning({ id: ticketEvents.id });
    if (gone.length === 0) return 0;
    const max = Math.max(...gone.map((g) => g.id));
    await ex
      .insert(ticketEventHorizon)
      .values({ id: 1, prunedThrough: max })
      .onConflictDoUpdate({ target: ticketEventHorizon.id, set: { prunedThrough: sql`greatest(${ticketEventHorizon.prunedThrough}, ${max})` } });
    return gone.length;
  }
}

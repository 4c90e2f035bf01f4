import { and, count, eq, gt, isNotNull, isNull, ne, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { customers } from '../customers/customers.tables.js';
import { vmConsoleSessions, type VmConsoleSession } from './vm-console.tables.js';

export type NewConsoleTicket = Pick<VmConsoleSession, 'vmId' | 'customerId' | 'adminId' | 'requesterSession' | 'ticketHash' | 'expiresAt' | 'createdAt'>;

export class VmConsoleRepository {
  async insertTicket(ex: Executor, row: NewConsoleTicket): Promise<VmConsoleSession> {
    const [created] = await ex.insert(vmConsoleSessions).values(row).returning();
    return created!;
  }

  /**
   * Opens the session of an unused, unexpired ticket of this VM and requester, in one statement:
   * of two requests with one ticket, one gets the row and the other nothing.
   */
  async consumeTicket(ex: Executor, q: { ticketHash: string; vmId: number; requesterSession: string; adminId: number | null; now: Date }): Promise<VmConsoleSession | undefined> {
    const [row] = await ex
      .update(vmConsoleSessions)
      .set({ openedAt: q.now, seenAt: q.now })
      .where(
        and(
          eq(vmConsoleSessions.ticketHash, q.ticketHash),
          eq(vmConsoleSessions.vmId, q.vmId),
          eq(vmConsoleSessions.requesterSession, q.requesterSession),
          q.adminId === null ? isNull(vmConsoleSessions.adminId) : eq(vmConsoleSessions.adminId, q.adminId),
          isNull(vmConsoleSessions.openedAt),
          gt(vmConsoleSessions.expiresAt, q.now),
        ),
      )
      .returning();
    return row;
  }

  /** Sessions open and seen after `aliveSince`, of a VM or of a customer, other than `except`. */
  async liveCount(ex: Executor, of: { vmId: number } | { customerId: number }, aliveSince: Date, except: number): Promise<number> {
    const owner: SQL = 'vmId' in of ? eq(vmConsoleSessions.vmId, of.vmId) : eq(vmConsoleSessions.customerId, of.customerId);
    const [row] = await ex
      .select({ n: count() })
      .from(vmConsoleSessions)
      .where(and(owner, isNotNull(vmConsoleSessions.openedAt), isNull(vmConsoleSessions.closedAt), gt(vmConsoleSessions.seenAt, aliveSince), ne(vmConsoleSessions.id, except)));
    return row?.n ?? 0;
  }

  async seen(ex: Executor, id: number, now: Date): Promise<void> {
    await ex.update(vmConsoleSessions).set({ seenAt: now }).where(and(eq(vmConsoleSessions.id, id), isNull(vmConsoleSessions.closedAt)));
  }

  /** Closes the session once; undefined when it was closed already. */
  async close(ex: Executor, id: number, now: Date, reason: string): Promise<VmConsoleSession | undefined> {
    const [row] = await ex
      .update(vmConsoleSessions)
      .set({ closedAt: now, closeReason: reason })
      .where(and(eq(vmConsoleSessions.id, id), isNull(vmConsoleSessions.closedAt)))
      .returning();
    return row;
  }

  async ownerContact(ex: Executor, customerId: number): Promise<{ email: string; firstName: string } | undefined> {
    const [row] = await ex.select({ email: customers.email, firstName: customers.firstName }).from(customers).where(eq(customers.id, customerId));
    return row;
  }
}

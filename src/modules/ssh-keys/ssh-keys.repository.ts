import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { sshKeys } from './ssh-keys.tables.js';

export type SshKeyRow = typeof sshKeys.$inferSelect;

export class SshKeysRepository {
  async insert(ex: Executor, row: typeof sshKeys.$inferInsert): Promise<SshKeyRow> {
    const [created] = await ex.insert(sshKeys).values(row).returning();
    return created!;
  }

  async find(ex: Executor, customerId: number, id: number): Promise<SshKeyRow | undefined> {
    const [row] = await ex
      .select()
      .from(sshKeys)
      .where(and(eq(sshKeys.id, id), eq(sshKeys.customerId, customerId)));
    return row;
  }

  /** The customer's keys among `ids` (another customer's id is simply not found). */
  async findMany(ex: Executor, customerId: number, ids: number[]): Promise<SshKeyRow[]> {
    if (ids.length === 0) return [];
    return ex
      .select()
      .from(sshKeys)
      .where(and(eq(sshKeys.customerId, customerId), inArray(sshKeys.id, ids)))
      .orderBy(asc(sshKeys.id));
  }

  async list(ex: Executor, customerId: number, p: PageRequest): Promise<Page<SshKeyRow>> {
    const where = eq(sshKeys.customerId, customerId);
    const items = await ex.select().from(sshKeys).where(where).orderBy(desc(sshKeys.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(sshKeys).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Until the transaction ends, the customer's other key creates wait (the count stays true). */
  async lockCustomer(ex: Executor, customerId: number): Promise<void> {
    await ex.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('update');
  }

  async countOf(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(sshKeys).where(eq(sshKeys.customerId, customerId));
    return row?.n ?? 0;
  }

  async rename(ex: Executor, customerId: number, id: number, name: string, at: Date): Promise<SshKeyRow | undefined> {
    const [row] = await ex
      .update(sshKeys)
      .set({ name, updatedAt: at })
      .where(and(eq(sshKeys.id, id), eq(sshKeys.customerId, customerId)))
      .returning();
    return row;
  }

  async delete(ex: Executor, customerId: number, id: number): Promise<boolean> {
    const rows = await ex
      .delete(sshKeys)
      .where(and(eq(sshKeys.id, id), eq(sshKeys.customerId, customerId)))
      .returning({ id: sshKeys.id });
    return rows.length > 0;
  }
}

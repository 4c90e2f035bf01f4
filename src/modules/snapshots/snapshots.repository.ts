import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { vms } from '../compute/compute.tables.js';
import { vmSnapshotRestores, vmSnapshots, type SnapshotStatus } from './snapshots.tables.js';

export type Snapshot = typeof vmSnapshots.$inferSelect;
export type SnapshotRestore = typeof vmSnapshotRestores.$inferSelect;

export interface SnapshotFilter {
  customerId?: number | undefined;
  vmId?: number | undefined;
  includeDeleted?: boolean;
}

export class SnapshotsRepository {
  async find(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<Snapshot | undefined> {
    const q = ex.select().from(vmSnapshots).where(eq(vmSnapshots.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async list(ex: Executor, f: SnapshotFilter, page: { limit: number; offset: number }): Promise<{ items: Snapshot[]; total: number }> {
    const where = and(
      f.customerId === undefined ? undefined : eq(vmSnapshots.customerId, f.customerId),
      f.vmId === undefined ? undefined : eq(vmSnapshots.vmId, f.vmId),
      f.includeDeleted ? undefined : ne(vmSnapshots.status, 'Deleted'),
    );
    const items = await ex.select().from(vmSnapshots).where(where).orderBy(desc(vmSnapshots.createdAt), desc(vmSnapshots.id)).limit(page.limit).offset(page.offset);
    const [total] = await ex.select({ n: count() }).from(vmSnapshots).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Snapshots that count against the customer's limit (every one not Deleted). */
  async countKept(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(vmSnapshots).where(and(eq(vmSnapshots.customerId, customerId), ne(vmSnapshots.status, 'Deleted')));
    return row?.n ?? 0;
  }

  async insert(ex: Executor, row: typeof vmSnapshots.$inferInsert): Promise<Snapshot> {
    const [created] = await ex.insert(vmSnapshots).values(row).returning();
    return created!;
  }

  async update(ex: Executor, id: number, set: Partial<typeof vmSnapshots.$inferInsert>): Promise<Snapshot | undefined> {
    const [row] = await ex.update(vmSnapshots).set(set).where(eq(vmSnapshots.id, id)).returning();
    return row;
  }

  /** Moves the snapshot on only while it is still `from` (a finish that lost its race changes nothing). */
  async transition(ex: Executor, id: number, from: SnapshotStatus, set: Partial<typeof vmSnapshots.$inferInsert>): Promise<Snapshot | undefined> {
    const [row] = await ex.update(vmSnapshots).set(set).where(and(eq(vmSnapshots.id, id), eq(vmSnapshots.status, from))).returning();
    return row;
  }

  /** The snapshot the VM's `snapshot` task is taking (the latest Creating one of it). */
  async creatingOf(ex: Executor, vmId: number): Promise<Snapshot | undefined> {
    const [row] = await ex.select().from(vmSnapshots).where(and(eq(vmSnapshots.vmId, vmId), eq(vmSnapshots.status, 'Creating'))).orderBy(desc(vmSnapshots.id)).limit(1);
    return row;
  }

  async restoreOf(ex: Executor, vmId: number): Promise<SnapshotRestore | undefined> {
    const [row] = await ex.select().from(vmSnapshotRestores).where(eq(vmSnapshotRestores.vmId, vmId));
    return row;
  }

  /** Asks for a restore of the VM (one at a time: a restore left by an Error is replaced). */
  async putRestore(ex: Executor, row: typeof vmSnapshotRestores.$inferInsert): Promise<void> {
    await ex
      .insert(vmSnapshotRestores)
      .values(row)
      .onConflictDoUpdate({ target: vmSnapshotRestores.vmId, set: { snapshotId: row.snapshotId, start: row.start, adminId: row.adminId ?? null, requestedAt: row.requestedAt ?? sql`now()` } });
  }

  async dropRestore(ex: Executor, vmId: number): Promise<void> {
    await ex.delete(vmSnapshotRestores).where(eq(vmSnapshotRestores.vmId, vmId));
  }

  async restoring(ex: Executor, snapshotId: number): Promise<boolean> {
    const [row] = await ex.select({ n: count() }).from(vmSnapshotRestores).where(eq(vmSnapshotRestores.snapshotId, snapshotId));
    return (row?.n ?? 0) > 0;
  }

  /** A VM is being created from the snapshot (its boot disk is copied from it). */
  async creatingFrom(ex: Executor, snapshotId: number): Promise<boolean> {
    const [row] = await ex.select({ n: count() }).from(vms).where(and(eq(vms.sourceSnapshotId, snapshotId), eq(vms.task, 'create')));
    return (row?.n ?? 0) > 0;
  }

  /** Which of these snapshots a restore is asked for now. */
  async restoringAmong(ex: Executor, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await ex.select({ id: vmSnapshotRestores.snapshotId }).from(vmSnapshotRestores).where(inArray(vmSnapshotRestores.snapshotId, ids));
    return new Set(rows.map((r) => r.id));
  }
}

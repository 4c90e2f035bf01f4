import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { blockStorageMachines, storageTiers } from './block-storage.tables.js';

export type BlockStorageMachine = typeof blockStorageMachines.$inferSelect;
export type StorageTier = typeof storageTiers.$inferSelect;

export class BlockStorageRepository {
  listMachines(ex: Executor, locationId?: number): Promise<BlockStorageMachine[]> {
    return ex
      .select()
      .from(blockStorageMachines)
      .where(locationId === undefined ? undefined : eq(blockStorageMachines.locationId, locationId))
      .orderBy(asc(blockStorageMachines.id));
  }

  listTiers(ex: Executor, opts: { activeOnly?: boolean } = {}): Promise<StorageTier[]> {
    return ex
      .select()
      .from(storageTiers)
      .where(opts.activeOnly ? eq(storageTiers.isActive, true) : undefined)
      .orderBy(asc(storageTiers.id));
  }

  async findTier(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<StorageTier | undefined> {
    const q = ex.select().from(storageTiers).where(eq(storageTiers.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async updateTier(ex: Executor, id: number, set: Partial<typeof storageTiers.$inferInsert>): Promise<StorageTier | undefined> {
    const [row] = await ex.update(storageTiers).set(set).where(eq(storageTiers.id, id)).returning();
    return row;
  }

  async insertTier(ex: Executor, row: typeof storageTiers.$inferInsert): Promise<StorageTier> {
    const [created] = await ex.insert(storageTiers).values(row).returning();
    return created!;
  }

  async insertMachine(ex: Executor, row: typeof blockStorageMachines.$inferInsert): Promise<BlockStorageMachine> {
    const [created] = await ex.insert(blockStorageMachines).values(row).returning();
    return created!;
  }

  /**
   * Takes `sizeGb` from the machine of the location with the most room, in one conditional
   * update (concurrent volumes never overfill a machine). undefined: no machine has room.
   */
  async reserve(ex: Executor, locationId: number, sizeGb: number): Promise<BlockStorageMachine | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const [candidate] = await ex
        .select()
        .from(blockStorageMachines)
        .where(and(eq(blockStorageMachines.locationId, locationId), sql`${blockStorageMachines.capacityGb} - ${blockStorageMachines.usedGb} >= ${sizeGb}`))
        .orderBy(sql`${blockStorageMachines.capacityGb} - ${blockStorageMachines.usedGb} desc`, asc(blockStorageMachines.id))
        .limit(1);
      if (!candidate) return undefined;
      const [row] = await ex
        .update(blockStorageMachines)
        .set({ usedGb: sql`${blockStorageMachines.usedGb} + ${sizeGb}` })
        .where(and(eq(blockStorageMachines.id, candidate.id), sql`${blockStorageMachines.capacityGb} - ${blockStorageMachines.usedGb} >= ${sizeGb}`))
        .returning();
      if (row) return row;
    }
    return undefined;
  }

  async release(ex: Executor, machineId: number, sizeGb: number): Promise<void> {
    await ex
      .update(blockStorageMachines)
      .set({ usedGb: sql`greatest(0, ${blockStorageMachines.usedGb} - ${sizeGb})` })
      .where(eq(blockStorageMachines.id, machineId));
  }

  async countTiers(ex: Executor): Promise<number> {
    const [row] = await ex.select({ n: sql<number>`count(*)::int` }).from(storageTiers);
    return row?.n ?? 0;
  }

  async countMachines(ex: Executor): Promise<number> {
    const [row] = await ex.select({ n: sql<number>`count(*)::int` }).from(blockStorageMachines);
    return row?.n ?? 0;
  }

}

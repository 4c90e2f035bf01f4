import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { locations } from '../lookups/lookups.tables.js';
import { tiers, tierTypes } from './tiers.tables.js';

export type TierType = typeof tierTypes.$inferSelect;
export type Tier = typeof tiers.$inferSelect;

export class TiersRepository {
  listTypes(ex: Executor): Promise<TierType[]> {
    return ex.select().from(tierTypes).orderBy(asc(tierTypes.id));
  }

  async findType(ex: Executor, id: number): Promise<TierType | undefined> {
    const [row] = await ex.select().from(tierTypes).where(eq(tierTypes.id, id));
    return row;
  }

  async insertType(ex: Executor, row: typeof tierTypes.$inferInsert): Promise<TierType> {
    const [created] = await ex.insert(tierTypes).values(row).returning();
    return created!;
  }

  async updateType(ex: Executor, id: number, set: Partial<typeof tierTypes.$inferInsert>): Promise<TierType | undefined> {
    const [row] = await ex.update(tierTypes).set(set).where(eq(tierTypes.id, id)).returning();
    return row;
  }

  list(ex: Executor, opts: { includeRetired: boolean }): Promise<Tier[]> {
    return ex
      .select()
      .from(tiers)
      .where(opts.includeRetired ? undefined : isNull(tiers.deletedAt))
      .orderBy(asc(tiers.id));
  }

  async find(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<Tier | undefined> {
    const q = ex.select().from(tiers).where(eq(tiers.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async insert(ex: Executor, row: typeof tiers.$inferInsert): Promise<Tier> {
    const [created] = await ex.insert(tiers).values(row).returning();
    return created!;
  }

  async update(ex: Executor, id: number, set: Partial<typeof tiers.$inferInsert>): Promise<Tier | undefined> {
    const [row] = await ex.update(tiers).set(set).where(eq(tiers.id, id)).returning();
    return row;
  }

  /** Tiers offered in a location: visible, not retired, bound to no location or to this one. */
  offeredIn(ex: Executor, locationId: number): Promise<Tier[]> {
    return ex
      .select()
      .from(tiers)
      .where(and(isNull(tiers.deletedAt), eq(tiers.isVisible, true), sql`(${tiers.locationId} is null or ${tiers.locationId} = ${locationId})`))
      .orderBy(asc(tiers.cpu), asc(tiers.memoryMb), asc(tiers.id));
  }

  async countTypes(ex: Executor): Promise<number> {
    const [row] = await ex.select({ n: sql<number>`count(*)::int` }).from(tierTypes);
    return row?.n ?? 0;
  }

  async locationExists(ex: Executor, id: number): Promise<boolean> {
    const [row] = await ex.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
    return row !== undefined;
  }
}

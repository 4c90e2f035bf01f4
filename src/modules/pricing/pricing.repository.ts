import { and, asc, desc, eq, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { locations } from '../lookups/lookups.tables.js';
import { priceVersions } from './price-versions.tables.js';
import { components, priceSchedules } from './pricing.tables.js';

export type Component = typeof components.$inferSelect;
export type PriceSchedule = typeof priceSchedules.$inferSelect;
export type PriceVersion = typeof priceVersions.$inferSelect;
export type ScheduleStatus = 'waiting' | 'applied' | 'cancelled';

export class PricingRepository {
  listComponents(ex: Executor): Promise<Component[]> {
    return ex.select().from(components).orderBy(asc(components.id));
  }

  async findComponent(ex: Executor, id: number): Promise<Component | undefined> {
    const [row] = await ex.select().from(components).where(eq(components.id, id));
    return row;
  }

  async componentByCode(ex: Executor, code: string): Promise<Component | undefined> {
    const [row] = await ex.select().from(components).where(eq(components.code, code));
    return row;
  }

  async insertComponents(ex: Executor, rows: (typeof components.$inferInsert)[]): Promise<void> {
    await ex.insert(components).values(rows).onConflictDoNothing();
  }

  async location(ex: Executor, id: number): Promise<{ id: number; isActive: boolean } | undefined> {
    const [row] = await ex.select({ id: locations.id, isActive: locations.isActive }).from(locations).where(eq(locations.id, id));
    return row;
  }

  listLocations(ex: Executor): Promise<{ id: number; isActive: boolean }[]> {
    return ex.select({ id: locations.id, isActive: locations.isActive }).from(locations).orderBy(asc(locations.id));
  }

  /**
   * The versions in force at `at`: for each (price_key, location_id) the one with the greatest
   * effective_from <= at (ties: the later row).
   */
  inForce(ex: Executor, at: Date, filter: { keys?: string[]; keyPrefix?: string; locationId?: number } = {}): Promise<PriceVersion[]> {
    const conds: (SQL | undefined)[] = [lte(priceVersions.effectiveFrom, at)];
    if (filter.keys) conds.push(filter.keys.length ? inArray(priceVersions.priceKey, filter.keys) : sql`false`);
    if (filter.keyPrefix) conds.push(sql`${priceVersions.priceKey} like ${`${filter.keyPrefix}%`}`);
    if (filter.locationId !== undefined) conds.push(eq(priceVersions.locationId, filter.locationId));
    return ex
      .selectDistinctOn([priceVersions.priceKey, priceVersions.locationId])
      .from(priceVersions)
      .where(and(...conds))
      .orderBy(priceVersions.priceKey, priceVersions.locationId, desc(priceVersions.effectiveFrom), desc(priceVersions.id));
  }

  async insertVersion(ex: Executor, row: typeof priceVersions.$inferInsert): Promise<PriceVersion> {
    const [created] = await ex.insert(priceVersions).values(row).returning();
    return created!;
  }

  async hasAnyVersion(ex: Executor, priceKey: string): Promise<boolean> {
    const [row] = await ex.select({ id: priceVersions.id }).from(priceVersions).where(eq(priceVersions.priceKey, priceKey)).limit(1);
    return row !== undefined;
  }

  async insertSchedule(ex: Executor, row: typeof priceSchedules.$inferInsert): Promise<PriceSchedule> {
    const [created] = await ex.insert(priceSchedules).values(row).returning();
    return created!;
  }

  listSchedules(ex: Executor, status: ScheduleStatus | undefined): Promise<PriceSchedule[]> {
    return ex
      .select()
      .from(priceSchedules)
      .where(status ? eq(priceSchedules.status, status) : undefined)
      .orderBy(asc(priceSchedules.effectiveDate), asc(priceSchedules.id))
      .limit(1000);
  }

  async findSchedule(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<PriceSchedule | undefined> {
    const q = ex.select().from(priceSchedules).where(eq(priceSchedules.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  /**
   * A schedule (not cancelled) of the key at this instant that covers the same location: any of
   * the key when `locationId` is null (every location), else that location's or an every-location one.
   */
  async overlappingSchedule(ex: Executor, priceKey: string, locationId: number | null, at: Date): Promise<boolean> {
    const [row] = await ex
      .select({ id: priceSchedules.id })
      .from(priceSchedules)
      .where(
        and(
          eq(priceSchedules.priceKey, priceKey),
          eq(priceSchedules.effectiveDate, at),
          ne(priceSchedules.status, 'cancelled'),
          locationId === null ? undefined : or(isNull(priceSchedules.locationId), eq(priceSchedules.locationId, locationId)),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** Waiting schedules whose date came, locked; rows another worker holds are skipped. */
  lockDue(ex: Executor, now: Date, limit: number): Promise<PriceSchedule[]> {
    return ex
      .select()
      .from(priceSchedules)
      .where(and(eq(priceSchedules.status, 'waiting'), lte(priceSchedules.effectiveDate, now)))
      // at one instant, every-location prices first: a location's own one is written after them and holds there
      .orderBy(asc(priceSchedules.effectiveDate), sql`${priceSchedules.locationId} is not null`, asc(priceSchedules.id))
      .limit(limit)
      .for('update', { skipLocked: true });
  }

  async updateSchedule(ex: Executor, id: number, from: ScheduleStatus, set: Partial<typeof priceSchedules.$inferInsert>): Promise<PriceSchedule | undefined> {
    const [row] = await ex
      .update(priceSchedules)
      .set(set)
      .where(and(eq(priceSchedules.id, id), eq(priceSchedules.status, from)))
      .returning();
    return row;
  }
}

import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { couponRedemptions, coupons } from './billing.tables.js';

export type CouponRow = typeof coupons.$inferSelect;
export type NewCoupon = typeof coupons.$inferInsert;

export class CouponsRepository {
  async findByCode(ex: Executor, code: string): Promise<CouponRow | undefined> {
    const [row] = await ex
      .select()
      .from(coupons)
      .where(and(sql`lower(${coupons.code}) = lower(${code})`, isNull(coupons.deletedAt)));
    return row;
  }

  async findById(ex: Executor, id: number): Promise<CouponRow | undefined> {
    const [row] = await ex.select().from(coupons).where(and(eq(coupons.id, id), isNull(coupons.deletedAt)));
    return row;
  }

  async list(ex: Executor, p: PageRequest): Promise<Page<CouponRow>> {
    const items = await ex.select().from(coupons).where(isNull(coupons.deletedAt)).orderBy(desc(coupons.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(coupons).where(isNull(coupons.deletedAt));
    return { items, total: total?.n ?? 0 };
  }

  async insert(ex: Executor, row: NewCoupon): Promise<CouponRow> {
    const [inserted] = await ex.insert(coupons).values(row).returning();
    return inserted!;
  }

  async update(ex: Executor, id: number, patch: Partial<NewCoupon>): Promise<CouponRow | undefined> {
    const [row] = await ex
      .update(coupons)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(and(eq(coupons.id, id), isNull(coupons.deletedAt)))
      .returning();
    return row;
  }

  async softDelete(ex: Executor, id: number, at: Date): Promise<boolean> {
    const rows = await ex
      .update(coupons)
      .set({ deletedAt: at, isActive: false, updatedAt: sql`now()` })
      .where(and(eq(coupons.id, id), isNull(coupons.deletedAt)))
      .returning({ id: coupons.id });
    return rows.length > 0;
  }

  /** Records the redemption for an invoice; false when that invoice already redeemed. */
  async insertRedemption(ex: Executor, row: typeof couponRedemptions.$inferInsert): Promise<number | undefined> {
    const [inserted] = await ex.insert(couponRedemptions).values(row).onConflictDoNothing().returning({ id: couponRedemptions.id });
    return inserted?.id;
  }

  async deleteRedemption(ex: Executor, id: number): Promise<void> {
    await ex.delete(couponRedemptions).where(eq(couponRedemptions.id, id));
  }

  /** Gives back a use taken for a top-up that failed or expired. */
  async releaseUse(ex: Executor, couponId: number, uses = 1): Promise<void> {
    await ex
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - ${uses}, 0)`, updatedAt: sql`now()` })
      .where(eq(coupons.id, couponId));
  }

  /** Takes one use, atomically respecting usage_limit; false when the coupon is used up. */
  async takeUse(ex: Executor, couponId: number): Promise<boolean> {
    const rows = await ex
      .update(coupons)
      .set({ usedCount: sql`${coupons.usedCount} + 1`, updatedAt: sql`now()` })
      .where(and(eq(coupons.id, couponId), sql`(${coupons.usageLimit} is null or ${coupons.usedCount} < ${coupons.usageLimit})`))
      .returning({ id: coupons.id });
    return rows.length > 0;
  }
}

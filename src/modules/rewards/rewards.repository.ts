import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { balanceLogs } from '../wallet/wallet.tables.js';
import { customers } from '../customers/customers.tables.js';
import { redeemCodeRedemptions, redeemCodes, referralCodes, referrals, rewardSettings } from './rewards.tables.js';
import { lockGlobal } from '../../platform/db/advisory-locks.js';

export type RedeemCodeRow = typeof redeemCodes.$inferSelect;
export type NewRedeemCode = typeof redeemCodes.$inferInsert;
export type RewardSettingsRow = typeof rewardSettings.$inferSelect;

export class RewardsRepository {
  // --- redeem codes -------------------------------------------------------------------------
  async findCodeByCode(ex: Executor, code: string): Promise<RedeemCodeRow | undefined> {
    const [row] = await ex
      .select()
      .from(redeemCodes)
      .where(and(sql`lower(${redeemCodes.code}) = lower(${code})`, isNull(redeemCodes.deletedAt)));
    return row;
  }

  async findCode(ex: Executor, id: number): Promise<RedeemCodeRow | undefined> {
    const [row] = await ex.select().from(redeemCodes).where(and(eq(redeemCodes.id, id), isNull(redeemCodes.deletedAt)));
    return row;
  }

  async listCodes(ex: Executor, p: PageRequest): Promise<Page<RedeemCodeRow>> {
    const items = await ex.select().from(redeemCodes).where(isNull(redeemCodes.deletedAt)).orderBy(desc(redeemCodes.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(redeemCodes).where(isNull(redeemCodes.deletedAt));
    return { items, total: total?.n ?? 0 };
  }

  async insertCode(ex: Executor, row: NewRedeemCode): Promise<RedeemCodeRow> {
    const [inserted] = await ex.insert(redeemCodes).values(row).returning();
    return inserted!;
  }

  async updateCode(ex: Executor, id: number, patch: Partial<NewRedeemCode>): Promise<RedeemCodeRow | undefined> {
    const [row] = await ex
      .update(redeemCodes)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(and(eq(redeemCodes.id, id), isNull(redeemCodes.deletedAt)))
      .returning();
    return row;
  }

  async softDeleteCode(ex: Executor, id: number, at: Date): Promise<boolean> {
    const rows = await ex
      .update(redeemCodes)
      .set({ deletedAt: at, isActive: false, updatedAt: sql`now()` })
      .where(and(eq(redeemCodes.id, id), isNull(redeemCodes.deletedAt)))
      .returning({ id: redeemCodes.id });
    return rows.length > 0;
  }

  /** The customer's redemption of a code; false when they already redeemed it. */
  async insertRedemption(ex: Executor, codeId: number, customerId: number, amount: string): Promise<boolean> {
    const rows = await ex.insert(redeemCodeRedemptions).values({ codeId, customerId, amount }).onConflictDoNothing().returning({ codeId: redeemCodeRedemptions.codeId });
    return rows.length > 0;
  }

  async setRedemptionEntry(ex: Executor, codeId: number, customerId: number, balanceLogId: number): Promise<void> {
    await ex
      .update(redeemCodeRedemptions)
      .set({ balanceLogId })
      .where(and(eq(redeemCodeRedemptions.codeId, codeId), eq(redeemCodeRedemptions.customerId, customerId)));
  }

  /** Takes one use atomically: active, in its window at `now`, and below usage_limit. */
  async takeUse(ex: Executor, id: number, now: Date): Promise<boolean> {
    const rows = await ex
      .update(redeemCodes)
      .set({ usedCount: sql`${redeemCodes.usedCount} + 1`, updatedAt: sql`now()` })
      .where(
        and(
          eq(redeemCodes.id, id),
          isNull(redeemCodes.deletedAt),
          eq(redeemCodes.isActive, true),
          sql`(${redeemCodes.validFrom} is null or ${redeemCodes.validFrom} <= ${now})`,
          sql`(${redeemCodes.validUntil} is null or ${redeemCodes.validUntil} > ${now})`,
          sql`(${redeemCodes.usageLimit} is null or ${redeemCodes.usedCount} < ${redeemCodes.usageLimit})`,
        ),
      )
      .returning({ id: redeemCodes.id });
    return rows.length > 0;
  }

  // --- settings -----------------------------------------------------------------------------
  async settings(ex: Executor): Promise<RewardSettingsRow> {
    const [row] = await ex.select().from(rewardSettings).where(eq(rewardSettings.id, 1));
    if (row) return row;
    await ex.insert(rewardSettings).values({ id: 1 }).onConflictDoNothing();
    const [seeded] = await ex.select().from(rewardSettings).where(eq(rewardSettings.id, 1));
    return seeded!;
  }

  async updateSettings(ex: Executor, set: Partial<typeof rewardSettings.$inferInsert>): Promise<RewardSettingsRow> {
    await this.settings(ex);
    const [row] = await ex.update(rewardSettings).set(set).where(eq(rewardSettings.id, 1)).returning();
    return row!;
  }

  // --- first top-up and referrals -------------------------------------------------------------
  /** How many top-ups of the customer the ledger holds (read under the wallet lock). */
  async topupCount(ex: Executor, customerId: number, type: string, referenceType: string): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(balanceLogs)
      .where(and(eq(balanceLogs.customerId, customerId), eq(balanceLogs.type, type), eq(balanceLogs.referenceType, referenceType)));
    return row?.n ?? 0;
  }

  /** topupCount for several customers in one query (customers with none are absent). */
  async topupCounts(ex: Executor, customerIds: number[], type: string, referenceType: string): Promise<Map<number, number>> {
    if (customerIds.length === 0) return new Map();
    const rows = await ex
      .select({ customerId: balanceLogs.customerId, n: count() })
      .from(balanceLogs)
      .where(
        and(
          customerIds.length === 1
            ? eq(balanceLogs.customerId, customerIds[0]!)
            : sql`${balanceLogs.customerId} in (select id::int from json_array_elements_text(${JSON.stringify(customerIds)}::json) as j(id))`,
          eq(balanceLogs.type, type),
          eq(balanceLogs.referenceType, referenceType),
        ),
      )
      .groupBy(balanceLogs.customerId);
    return new Map(rows.map((r) => [r.customerId, r.n]));
  }

  async setFlag(ex: Executor, customerId: number, flag: 'first_top_up' | 'referral'): Promise<void> {
    await ex
      .update(customers)
      .set(flag === 'first_top_up' ? { rewardFirstTopUp: true } : { rewardReferral: true })
      .where(eq(customers.id, customerId));
  }

  async referralCodeOf(ex: Executor, customerId: number): Promise<string | undefined> {
    const [row] = await ex.select({ code: referralCodes.code }).from(referralCodes).where(eq(referralCodes.customerId, customerId));
    return row?.code;
  }

  /** false when the code is taken (by anyone) or the customer already has one. */
  async insertReferralCode(ex: Executor, customerId: number, code: string): Promise<boolean> {
    const rows = await ex.insert(referralCodes).values({ customerId, code }).onConflictDoNothing().returning({ id: referralCodes.customerId });
    return rows.length > 0;
  }

  async ownerOfReferralCode(ex: Executor, code: string): Promise<number | undefined> {
    const [row] = await ex.select({ id: referralCodes.customerId }).from(referralCodes).where(eq(referralCodes.code, code.toUpperCase()));
    return row?.id;
  }

  async insertReferral(ex: Executor, referredCustomerId: number, referrerCustomerId: number): Promise<boolean> {
    const rows = await ex.insert(referrals).values({ referredCustomerId, referrerCustomerId }).onConflictDoNothing().returning({ id: referrals.referredCustomerId });
    return rows.length > 0;
  }

  /** Until the transaction ends, other referral claims wait (one advisory lock for all: claims are rare, cycles span customers). */
  async lockReferralClaims(tx: Executor): Promise<void> {
    await lockGlobal(tx, 'referralClaims');
  }

  /** Whether `customerId` is `from` or one of the referrers above it (from's referrer, theirs, and so on). */
  async inReferrerChain(ex: Executor, from: number, customerId: number): Promise<boolean> {
    const rows = await queryRows<{ hit: number }>(
      ex,
      sql`
      with recursive chain(id) as (
        select ${from}::int
        union
        select r.referrer_customer_id from referrals r join chain on r.referred_customer_id = chain.id
      )
      select 1 as hit from chain where id = ${customerId} limit 1`,
    );
    return rows.length > 0;
  }

  /** The referral of this customer still unrewarded, locked; undefined when none or already rewarded. */
  async lockUnrewardedReferral(ex: Executor, referredCustomerId: number): Promise<{ referrerCustomerId: number } | undefined> {
    const [row] = await ex
      .select({ referrerCustomerId: referrals.referrerCustomerId })
      .from(referrals)
      .where(and(eq(referrals.referredCustomerId, referredCustomerId), isNull(referrals.rewardedAt)))
      .for('update');
    return row;
  }

  async markReferralRewarded(ex: Executor, referredCustomerId: number, bonus: string, at: Date): Promise<void> {
    await ex.update(referrals).set({ bonusAmount: bonus, rewardedAt: at }).where(eq(referrals.referredCustomerId, referredCustomerId));
  }

  async referralStats(ex: Executor, referrerCustomerId: number): Promise<{ referred: number; earned: string }> {
    const [row] = await ex
      .select({ referred: count(), earned: sql<string>`coalesce(sum(${referrals.bonusAmount}), 0)::text` })
      .from(referrals)
      .where(eq(referrals.referrerCustomerId, referrerCustomerId));
    return { referred: row?.referred ?? 0, earned: row?.earned ?? '0' };
  }
}

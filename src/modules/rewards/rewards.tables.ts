import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/** Redeem codes (Admin Billing): a fixed amount of bonus credit, each customer once (docs/decisions.md §9). */
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    usageLimit: integer('usage_limit'),
    usedCount: integer('used_count').notNull().default(0),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('redeem_codes_code_unique').on(sql`lower(${t.code})`).where(sql`${t.deletedAt} is null`),
    check('redeem_codes_amount_positive', sql`${t.amount} > 0`),
    check('redeem_codes_usage', sql`${t.usageLimit} is null or ${t.usedCount} <= ${t.usageLimit}`),
  ],
);

/** One redemption per (code, customer): the primary key is the "once per customer" rule. */
export const redeemCodeRedemptions = pgTable(
  'redeem_code_redemptions',
  {
    codeId: integer('code_id')
      .notNull()
      .references(() => redeemCodes.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    balanceLogId: bigint('balance_log_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.customerId] }), index('redeem_code_redemptions_customer_idx').on(t.customerId)],
);

/**
 * The reward settings: one row, id 1. Each reward is a percent of the (referred) customer's first
 * paid top-up, rounded down to the cent and capped; a percent of 0 switches the reward off.
 */
export const rewardSettings = pgTable(
  'reward_settings',
  {
    id: integer('id').primaryKey().default(sql`1`),
    firstTopUpPercent: numeric('first_top_up_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    firstTopUpMaxBonus: numeric('first_top_up_max_bonus', { precision: 18, scale: 2 }),
    referralPercent: numeric('referral_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    referralMaxBonus: numeric('referral_max_bonus', { precision: 18, scale: 2 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reward_settings_singleton', sql`${t.id} = 1`),
    check('reward_settings_percent_range', sql`${t.firstTopUpPercent} between 0 and 100 and ${t.referralPercent} between 0 and 100`),
  ],
);

/** Every customer's referral code, made on first ask. */
export const referralCodes = pgTable(
  'referral_codes',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('referral_codes_code_unique').on(t.code)],
);

/** Who referred whom: a customer is referred at most once (primary key). */
export const referrals = pgTable(
  'referrals',
  {
    referredCustomerId: integer('referred_customer_id')
      .primaryKey()
      .references(() => customers.id),
    referrerCustomerId: integer('referrer_customer_id')
      .notNull()
      .references(() => customers.id),
    /** the referrer's bonus, once granted */
    bonusAmount: numeric('bonus_amount', { precision: 18, scale: 2 }),
    rewardedAt: timestamp('rewarded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerCustomerId), check('referrals_not_self', sql`${t.referredCustomerId} <> ${t.referrerCustomerId}`)],
);

export const rewardsConstraintMeanings = {
  redeem_codes_code_unique: { code: 'REDEEM_CODE_TAKEN', message: 'A redeem code with this code already exists' },
} as const;

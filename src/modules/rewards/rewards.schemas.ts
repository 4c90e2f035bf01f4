import { Type } from 'typebox';
import { Instant, IntId, Money, MoneyInput, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const codeFields = {
  code: Type.String({ minLength: 3, maxLength: 40, description: 'letters, digits, "-" or "_"; case-insensitive, unique' }),
  description: Type.String({ maxLength: 500 }),
  amount: MoneyInput({ description: 'bonus credit granted by one redemption' }),
  usage_limit: Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'redemptions in all (null: unlimited); each customer redeems once' })),
  valid_from: Nullable(Instant),
  valid_until: Nullable(Instant),
  is_active: Type.Boolean(),
};
export const RedeemCodeCreateBody = StrictObject({
  code: codeFields.code,
  amount: codeFields.amount,
  description: Type.Optional(codeFields.description),
  usage_limit: Type.Optional(codeFields.usage_limit),
  valid_from: Type.Optional(codeFields.valid_from),
  valid_until: Type.Optional(codeFields.valid_until),
  is_active: Type.Optional(codeFields.is_active),
});
export const RedeemCodePatchBody = StrictObject(
  Object.fromEntries(Object.entries(codeFields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof typeof codeFields]: ReturnType<typeof Type.Optional<(typeof codeFields)[K]>>;
  },
  { minProperties: 1 },
);
export const RedeemCode = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  description: Type.String(),
  amount: Money,
  usage_limit: Nullable(Type.Integer()),
  used_count: Type.Integer(),
  valid_from: Nullable(Timestamp),
  valid_until: Nullable(Timestamp),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const RedeemCodeParams = Type.Object({ id: IntId });

export const RedeemBody = StrictObject({ code: Type.String({ minLength: 1, maxLength: 40 }) });
export const RedeemResult = Type.Object({ code: Type.String(), amount: Money, current_balance: Money });

export const RewardSettingsBody = StrictObject({
  first_top_up_percent: Type.Number({ minimum: 0, maximum: 100, description: 'percent of the first paid top-up (0: off)' }),
  first_top_up_max_bonus: Nullable(MoneyInput()),
  referral_percent: Type.Number({ minimum: 0, maximum: 100, description: "percent of the referred customer's first paid top-up, to the referrer (0: off)" }),
  referral_max_bonus: Nullable(MoneyInput()),
});
export const RewardSettings = Type.Object({
  first_top_up_percent: Type.Number(),
  first_top_up_max_bonus: Nullable(Money),
  referral_percent: Type.Number(),
  referral_max_bonus: Nullable(Money),
  updated_at: Timestamp,
});

export const Referral = Type.Object({ code: Type.String(), referred_count: Type.Integer(), earned: Money });
export const ReferralClaimBody = StrictObject({ code: Type.String({ minLength: 1, maxLength: 40 }) });

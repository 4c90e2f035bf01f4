import { moneyJson } from '../../platform/money.js';
import type { RedeemCodeRow, RewardSettingsRow } from './rewards.repository.js';

/* The rewards module's answers: every row the API shows is mapped here, in one place. */

/** A redeem code (backoffice). */
export function redeemCodeView(c: RedeemCodeRow) {
  return {
    id: c.id,
    code: c.code,
    description: c.description,
    amount: moneyJson(c.amount),
    usage_limit: c.usageLimit,
    used_count: c.usedCount,
    valid_from: c.validFrom?.toISOString() ?? null,
    valid_until: c.validUntil?.toISOString() ?? null,
    is_active: c.isActive,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** The reward settings (backoffice). */
export function settingsView(s: RewardSettingsRow) {
  return {
    first_top_up_percent: Number(s.firstTopUpPercent),
    first_top_up_max_bonus: s.firstTopUpMaxBonus === null ? null : moneyJson(s.firstTopUpMaxBonus),
    referral_percent: Number(s.referralPercent),
    referral_max_bonus: s.referralMaxBonus === null ? null : moneyJson(s.referralMaxBonus),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** The answer of a redeemed code: what it credited and the balance after. */
export function redeemedView(r: { code: RedeemCodeRow; currentBalance: string }) {
  return { code: r.code.code, amount: moneyJson(r.code.amount), current_balance: moneyJson(r.currentBalance) };
}

import { randomInt } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { dec, isMoneyInput, moneyInputRule, moneyJson, moneyString, percentBonus } from '../../platform/money.js';
import { BalanceLogType, type WalletService } from '../wallet/index.js';
import type { NewRedeemCode, RedeemCodeRow, RewardSettingsRow, RewardsRepository } from './rewards.repository.js';

export const REDEEM_REFERENCE = 'redeem_code';
export const FIRST_TOP_UP_REFERENCE = 'reward_first_top_up';
export const REFERRAL_REFERENCE = 'reward_referral';
/** The billing module's ledger entry of a credited top-up (type BalanceLogAdd, this reference type). */
const TOPUP_REFERENCE = 'topup_invoice';

export interface RedeemCodeInput {
  code: string;
  description?: string;
  amount: number;
  usage_limit?: number | null;
  valid_from?: string | null;
  valid_until?: string | null;
  is_active?: boolean;
}

export interface RewardSettingsInput {
  first_top_up_percent: number;
  first_top_up_max_bonus: number | null;
  referral_percent: number;
  referral_max_bonus: number | null;
}

/** What billing tells the rewards about a credited top-up (in the crediting transaction). */
export interface CreditedTopup {
  customerId: number;
  invoiceId: string;
  /** the top-up credited, decimal string */
  amount: string;
}

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Redeem codes, the first top-up reward and referrals. Every grant is its own ledger entry of
 * bonus credit whose (type, reference) is unique, so a repeat is a no-op.
 */
export class RewardsService {
  constructor(
    private readonly db: Database,
    private readonly repo: RewardsRepository,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  // --- redeem codes (backoffice) --------------------------------------------------------------
  listCodes(p: PageRequest): Promise<Page<RedeemCodeRow>> {
    return this.repo.listCodes(this.db, p);
  }

  async getCode(id: number): Promise<RedeemCodeRow> {
    const row = await this.repo.findCode(this.db, id);
    if (!row) throw new NotFoundError('Redeem code');
    return row;
  }

  async createCode(input: RedeemCodeInput): Promise<RedeemCodeRow> {
    const row = this.toRow(input, undefined) as NewRedeemCode;
    return this.uniqueCode(() => this.repo.insertCode(this.db, row));
  }

  async updateCode(id: number, input: Partial<RedeemCodeInput>): Promise<RedeemCodeRow> {
    const current = await this.getCode(id);
    const patch = this.toRow(input, current);
    if (input.usage_limit !== undefined && input.usage_limit !== null && input.usage_limit < current.usedCount) {
      throw new ValidationError('Validation failed', [{ field: 'usage_limit', message: `must be at least the ${current.usedCount} uses already made` }]);
    }
    const row = await this.uniqueCode(() => this.repo.updateCode(this.db, id, patch));
    if (!row) throw new NotFoundError('Redeem code');
    return row;
  }

  async removeCode(id: number): Promise<void> {
    if (!(await this.repo.softDeleteCode(this.db, id, this.clock.now()))) throw new NotFoundError('Redeem code');
  }

  // --- redeem (customer) ----------------------------------------------------------------------
  /**
   * One transaction: the (code, customer) redemption row (once per customer), one use taken
   * atomically under usage_limit and the window, and the bonus credit as its own ledger entry.
   */
  async redeem(customerId: number, codeText: string): Promise<{ code: RedeemCodeRow; currentBalance: string }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const code = await this.repo.findCodeByCode(tx, codeText.trim());
      if (!code) throw new BadRequestError('REDEEM_CODE_NOT_FOUND', 'This redeem code does not exist');
      if (!code.isActive) throw new BadRequestError('REDEEM_CODE_INACTIVE', 'This redeem code is not active');
      if (code.validFrom && code.validFrom > now) throw new BadRequestError('REDEEM_CODE_NOT_YET_VALID', 'This redeem code is not valid yet');
      if (code.validUntil && code.validUntil <= now) throw new BadRequestError('REDEEM_CODE_EXPIRED', 'This redeem code has expired');
      if (!(await this.repo.insertRedemption(tx, code.id, customerId, code.amount))) {
        throw new ConflictError('You have already redeemed this code', 'ALREADY_REDEEMED');
      }
      if (!(await this.repo.takeUse(tx, code.id, now))) throw new BadRequestError('REDEEM_CODE_USED_UP', 'This redeem code has been used up');
      const credit = await this.wallet.credit(tx, {
        customerId,
        type: BalanceLogType.Bonus,
        amount: code.amount,
        part: 'bonus',
        referenceType: REDEEM_REFERENCE,
        referenceId: `${code.id}:${customerId}`,
        description: `Redeem code ${code.code}`,
      });
      await this.repo.setRedemptionEntry(tx, code.id, customerId, credit.entry.id);
      return { code, currentBalance: credit.entry.currentBalanceAfter };
    });
  }

  // --- settings -------------------------------------------------------------------------------
  settings(): Promise<RewardSettingsRow> {
    return this.repo.settings(this.db);
  }

  async updateSettings(input: RewardSettingsInput): Promise<RewardSettingsRow> {
    const errors: FieldError[] = [];
    for (const f of ['first_top_up_percent', 'referral_percent'] as const) {
      if (!(input[f] >= 0 && input[f] <= 100) || dec(input[f]).decimalPlaces() > 2) errors.push({ field: f, message: 'must be a percent between 0 and 100 with at most 2 decimals' });
    }
    for (const f of ['first_top_up_max_bonus', 'referral_max_bonus'] as const) {
      const v = input[f];
      if (v !== null && !isMoneyInput(v, true)) errors.push({ field: f, message: `null, or ${moneyInputRule(true).replace(/^must be /, '')}` });
    }
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    const row = await this.repo.updateSettings(this.db, {
      firstTopUpPercent: dec(input.first_top_up_percent).toFixed(2),
      firstTopUpMaxBonus: input.first_top_up_max_bonus === null ? null : moneyString(input.first_top_up_max_bonus),
      referralPercent: dec(input.referral_percent).toFixed(2),
      referralMaxBonus: input.referral_max_bonus === null ? null : moneyString(input.referral_max_bonus),
      updatedAt: this.clock.now(),
    });
    return row;
  }

  // --- referrals ------------------------------------------------------------------------------
  /** The customer's referral code (made on first ask), how many customers used it, what it earned. */
  async referral(customerId: number) {
    let code = await this.repo.referralCodeOf(this.db, customerId);
    for (let attempt = 0; !code && attempt < 10; attempt++) {
      const candidate = Array.from({ length: 8 }, () => REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)]).join('');
      await this.repo.insertReferralCode(this.db, customerId, candidate);
      code = await this.repo.referralCodeOf(this.db, customerId);
    }
    if (!code) throw new ConflictError('Could not make a referral code; please try again', 'CONCURRENT_UPDATE');
    const stats = await this.repo.referralStats(this.db, customerId);
    return { code, referred_count: stats.referred, earned: moneyJson(stats.earned) };
  }

  /**
   * A new customer names who referred them: once, not themselves, not anyone they referred directly
   * or through others (no cycle of any length: each would earn from the next one's first top-up),
   * and only before their first top-up is credited (the referrer's bonus is earned by that first
   * top-up). Claims run one at a time, so two claims closing a cycle together cannot both pass.
   */
  async claimReferral(customerId: number, codeText: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.repo.lockReferralClaims(tx);
      const referrer = await this.repo.ownerOfReferralCode(tx, codeText.trim());
      if (referrer === undefined) throw new BadRequestError('REFERRAL_CODE_NOT_FOUND', 'This referral code does not exist');
      if (referrer === customerId) throw new BadRequestError('OWN_REFERRAL_CODE', 'You cannot use your own referral code');
      if (await this.repo.inReferrerChain(tx, referrer, customerId)) {
        throw new BadRequestError('REFERRAL_CYCLE', 'The owner of this code was referred by you, directly or through others');
      }
      if ((await this.repo.topupCount(tx, customerId, BalanceLogType.Add, TOPUP_REFERENCE)) > 0) {
        throw new BadRequestError('REFERRAL_TOO_LATE', 'A referral code can only be used before the first top-up');
      }
      if (!(await this.repo.insertReferral(tx, customerId, referrer))) throw new ConflictError('You have already used a referral code', 'ALREADY_REFERRED');
    });
  }

  // --- the billing port -----------------------------------------------------------------------
  /**
   * Billing calls this inside the transaction that credited a batch of top-ups (the customers'
   * wallet rows are locked there, so parallel credits of one customer run here one after the
   * other). Only a customer's first credited top-up earns the rewards; each is a unique ledger entry.
   */
  async topupsCredited(tx: Executor, topups: CreditedTopup[]): Promise<void> {
    // Billing tells a batch of credits at once, after all of them are in the ledger: a customer
    // whose top-ups in the ledger are all in this batch has its first one here.
    const firsts = new Map<number, { topup: CreditedTopup; inBatch: number }>();
    for (const topup of topups) {
      const seen = firsts.get(topup.customerId);
      if (seen) seen.inBatch++;
      else firsts.set(topup.customerId, { topup, inBatch: 1 });
    }
    const counts = await this.repo.topupCounts(tx, [...firsts.keys()], BalanceLogType.Add, TOPUP_REFERENCE);
    for (const [customerId, { topup, inBatch }] of firsts) if ((counts.get(customerId) ?? 0) === inBatch) await this.rewardFirstTopUp(tx, topup);
  }

  /** The rewards of a customer's first credited top-up (each a unique ledger entry, so a replay is a no-op). */
  private async rewardFirstTopUp(tx: Executor, topup: CreditedTopup): Promise<void> {
    const s = await this.repo.settings(tx);
    if (dec(s.firstTopUpPercent).gt(0)) {
      const bonus = percentBonus(topup.amount, s.firstTopUpPercent, s.firstTopUpMaxBonus);
      if (dec(bonus).gt(0)) {
        const r = await this.wallet.credit(tx, {
          customerId: topup.customerId,
          type: BalanceLogType.Bonus,
          amount: bonus,
          part: 'bonus',
          referenceType: FIRST_TOP_UP_REFERENCE,
          referenceId: String(topup.customerId),
          description: 'First top-up reward',
        });
        if (r.applied) await this.repo.setFlag(tx, topup.customerId, 'first_top_up');
      }
    }
    const referral = await this.repo.lockUnrewardedReferral(tx, topup.customerId);
    if (!referral) return;
    const bonus = dec(s.referralPercent).gt(0) ? percentBonus(topup.amount, s.referralPercent, s.referralMaxBonus) : '0.00';
    if (dec(bonus).gt(0)) {
      const r = await this.wallet.credit(tx, {
        customerId: referral.referrerCustomerId,
        type: BalanceLogType.Bonus,
        amount: bonus,
        part: 'bonus',
        referenceType: REFERRAL_REFERENCE,
        referenceId: String(topup.customerId),
        description: 'Referral reward',
      });
      if (r.applied) await this.repo.setFlag(tx, referral.referrerCustomerId, 'referral');
    }
    await this.repo.markReferralRewarded(tx, topup.customerId, bonus, this.clock.now());
  }

  private async uniqueCode<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('A redeem code with this code already exists', 'REDEEM_CODE_TAKEN');
      throw err;
    }
  }

  private toRow(input: Partial<RedeemCodeInput>, current: RedeemCodeRow | undefined): Partial<NewRedeemCode> {
    const errors: FieldError[] = [];
    if (input.amount !== undefined && !isMoneyInput(input.amount, true)) errors.push({ field: 'amount', message: moneyInputRule(true) });
    const from = input.valid_from !== undefined ? (input.valid_from ? new Date(input.valid_from) : null) : (current?.validFrom ?? null);
    const until = input.valid_until !== undefined ? (input.valid_until ? new Date(input.valid_until) : null) : (current?.validUntil ?? null);
    if (from && until && until <= from) errors.push({ field: 'valid_until', message: 'must be after valid_from' });
    if (input.code !== undefined && !/^[A-Za-z0-9_-]{3,40}$/.test(input.code)) errors.push({ field: 'code', message: 'must be 3 to 40 letters, digits, "-" or "_"' });
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    const row: Partial<NewRedeemCode> = {};
    if (input.code !== undefined) row.code = input.code;
    if (input.description !== undefined) row.description = input.description;
    if (input.amount !== undefined) row.amount = moneyString(input.amount);
    if (input.usage_limit !== undefined) row.usageLimit = input.usage_limit;
    if (input.valid_from !== undefined) row.validFrom = from;
    if (input.valid_until !== undefined) row.validUntil = until;
    if (input.is_active !== undefined) row.isActive = input.is_active;
    return row;
  }
}

import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { dec, isMoneyInput, MONEY_INPUT_MAX, moneyInputRule, moneyString, percentBonus } from '../../platform/money.js';
import type { CouponRow, CouponsRepository, NewCoupon } from './coupons.repository.js';

export interface CouponInput {
  code: string;
  description?: string;
  type: 'PERCENT' | 'FIXED';
  value: number;
  max_bonus?: number | null;
  min_deposit?: number;
  valid_from?: string | null;
  valid_until?: string | null;
  usage_limit?: number | null;
  is_active?: boolean;
}

export interface ValidCoupon {
  coupon: CouponRow;
  /** the bonus this top-up earns, 2 decimals */
  bonus: string;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** The bonus of a coupon for a top-up: percent (rounded down to the cent, capped) or fixed. */
export function couponBonus(coupon: Pick<CouponRow, 'type' | 'value' | 'maxBonus'>, amount: string): string {
  if (coupon.type === 'PERCENT') return percentBonus(amount, coupon.value, coupon.maxBonus);
  const fixed = dec(coupon.value);
  return (coupon.maxBonus !== null && fixed.gt(coupon.maxBonus) ? dec(coupon.maxBonus) : fixed).toFixed(2);
}

/**
 * The largest coupon amount (a FIXED value, a max_bonus, a min_deposit): the bound of every money
 * input, which is also the largest top-up. A bonus is therefore never larger than the top-up could
 * be, and a wallet can always hold it.
 */
export const COUPON_AMOUNT_MAX = MONEY_INPUT_MAX;

/** What its unique and check constraints mean when a concurrent request breaks one (409). */
export const couponsConstraintMeanings = {
  coupons_code_unique: { code: 'COUPON_CODE_TAKEN', message: 'A coupon with this code already exists' },
  coupons_usage: { code: 'COUPON_USAGE_BELOW_USES', message: 'The usage limit would be below the uses already taken (uses were taken at the same moment)' },
} as const;

export class CouponsService {
  constructor(
    private readonly db: Database,
    private readonly repo: CouponsRepository,
    private readonly clock: Clock,
  ) {}

  /** Top-up time: the coupon must exist, be active, be in its window, have uses left and fit the amount. */
  async validateForTopup(ex: Executor, code: string, amount: string): Promise<ValidCoupon> {
    const coupon = await this.repo.findByCode(ex, code.trim());
    const now = this.clock.now();
    if (!coupon) throw new BadRequestError('COUPON_NOT_FOUND', 'This coupon code does not exist');
    if (!coupon.isActive) throw new BadRequestError('COUPON_INACTIVE', 'This coupon is not active');
    if (coupon.validFrom && coupon.validFrom > now) throw new BadRequestError('COUPON_NOT_YET_VALID', 'This coupon is not valid yet');
    if (coupon.validUntil && coupon.validUntil <= now) throw new BadRequestError('COUPON_EXPIRED', 'This coupon has expired');
    if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) {
      throw new BadRequestError('COUPON_USED_UP', 'This coupon has been used up');
    }
    if (dec(amount).lt(coupon.minDeposit)) {
      throw new BadRequestError('COUPON_MIN_DEPOSIT', `This coupon needs a deposit of at least ${moneyString(coupon.minDeposit)}`);
    }
    return { coupon, bonus: couponBonus(coupon, amount) };
  }

  /**
   * Top-up time, in the transaction creating the invoice: takes one use atomically (the use is
   * the invoice's until it is paid, fails or expires). 400 COUPON_USED_UP when none is left.
   */
  async reserve(tx: Executor, couponId: number): Promise<void> {
    if (!(await this.repo.takeUse(tx, couponId))) throw new BadRequestError('COUPON_USED_UP', 'This coupon has been used up');
  }

  /** An invoice that failed or expired gives its reserved use back. */
  release(tx: Executor, couponId: number, uses = 1): Promise<void> {
    return this.repo.releaseUse(tx, couponId, uses);
  }

  /**
   * Payment time, inside the crediting transaction: one redemption per invoice. `useReserved`:
   * the invoice holds a use taken at top-up time; otherwise (a late payment whose use was
   * released) a use is taken now, if one is left. False when no bonus is due (the top-up is
   * still credited, and the invoice says so).
   */
  async redeem(tx: Executor, couponId: number, invoiceId: string, customerId: number, bonus: string, useReserved: boolean): Promise<boolean> {
    const redemptionId = await this.repo.insertRedemption(tx, { couponId, invoiceId, customerId, bonusAmount: bonus });
    if (redemptionId === undefined) return true; // redeemed by an earlier run of the same credit
    if (useReserved || (await this.repo.takeUse(tx, couponId))) return true;
    await this.repo.deleteRedemption(tx, redemptionId);
    return false;
  }

  list(p: PageRequest): Promise<Page<CouponRow>> {
    return this.repo.list(this.db, p);
  }

  async get(id: number): Promise<CouponRow> {
    const row = await this.repo.findById(this.db, id);
    if (!row) throw new NotFoundError('Coupon');
    return row;
  }

  async create(input: CouponInput): Promise<CouponRow> {
    const row = this.toRow(input, undefined);
    try {
      return await this.repo.insert(this.db, row as NewCoupon);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('A coupon with this code already exists', 'COUPON_CODE_TAKEN');
      throw err;
    }
  }

  async update(id: number, input: Partial<CouponInput>): Promise<CouponRow> {
    const current = await this.get(id);
    const patch = this.toRow(input, current);
    if (input.usage_limit !== undefined && input.usage_limit !== null && input.usage_limit < current.usedCount) {
      throw new ValidationError('Validation failed', [{ field: 'usage_limit', message: `must be at least the ${current.usedCount} uses already taken (paid, or held by deposits waiting for payment)` }]);
    }
    try {
      const row = await this.repo.update(this.db, id, patch);
      if (!row) throw new NotFoundError('Coupon');
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('A coupon with this code already exists', 'COUPON_CODE_TAKEN');
      throw err;
    }
  }

  async remove(id: number): Promise<void> {
    if (!(await this.repo.softDelete(this.db, id, this.clock.now()))) throw new NotFoundError('Coupon');
  }

  /** Checks a create (no current) or a patch (merged with current) and maps it to columns. */
  private toRow(input: Partial<CouponInput>, current: CouponRow | undefined): Partial<NewCoupon> {
    const errors: FieldError[] = [];
    const money = (field: string, v: number | null | undefined, positive: boolean) => {
      if (v === undefined || v === null) return;
      if (!isMoneyInput(v, positive)) errors.push({ field, message: moneyInputRule(positive) });
    };
    money('value', input.value, true);
    money('max_bonus', input.max_bonus, true);
    money('min_deposit', input.min_deposit, false);
    const type = input.type ?? current?.type;
    const value = input.value !== undefined ? dec(input.value) : current ? dec(current.value) : undefined;
    if (type === 'PERCENT' && value && value.gt(100)) errors.push({ field: 'value', message: 'a percentage must be at most 100' });
    const from = input.valid_from !== undefined ? (input.valid_from ? new Date(input.valid_from) : null) : (current?.validFrom ?? null);
    const until = input.valid_until !== undefined ? (input.valid_until ? new Date(input.valid_until) : null) : (current?.validUntil ?? null);
    if (from && until && until <= from) errors.push({ field: 'valid_until', message: 'must be after valid_from' });
    if (input.code !== undefined && !/^[A-Za-z0-9_-]{3,40}$/.test(input.code)) {
      errors.push({ field: 'code', message: 'must be 3 to 40 letters, digits, "-" or "_"' });
    }
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    const row: Partial<NewCoupon> = {};
    if (input.code !== undefined) row.code = input.code;
    if (input.description !== undefined) row.description = input.description;
    if (input.type !== undefined) row.type = input.type;
    if (input.value !== undefined) row.value = moneyString(input.value);
    if (input.max_bonus !== undefined) row.maxBonus = input.max_bonus === null ? null : moneyString(input.max_bonus);
    if (input.min_deposit !== undefined) row.minDeposit = moneyString(input.min_deposit);
    if (input.valid_from !== undefined) row.validFrom = from;
    if (input.valid_until !== undefined) row.validUntil = until;
    if (input.usage_limit !== undefined) row.usageLimit = input.usage_limit;
    if (input.is_active !== undefined) row.isActive = input.is_active;
    return row;
  }
}

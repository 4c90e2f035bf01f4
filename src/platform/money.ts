import { Decimal } from 'decimal.js';

/** Money inside the service: decimal.js (or the decimal strings drizzle returns), never a JS float. */
export { Decimal };

export type MoneyInput = Decimal.Value;

export function dec(value: MoneyInput): Decimal {
  return new Decimal(value);
}

/** A NUMERIC(18,2) literal for SQL: "1234.50". */
export function moneyString(value: MoneyInput): string {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/**
 * A money field of a response (a `Money` schema): the exact decimal text, rounded to 2 decimals
 * (docs/decisions.md §1), e.g. "1000999999999999.99"; the serializer writes it as a JSON number. Never a
 * JS number: a double cannot hold every NUMERIC(18,2).
 */
export function moneyJson(value: MoneyInput | null | undefined): string {
  if (value === null || value === undefined) return '0';
  if (typeof value === 'string') {
    const plain = plainMoneyText(value);
    if (plain !== undefined) return plain;
  }
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
}

const AT_MOST_TWO_DECIMALS = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;

/**
 * The text moneyJson gives for a decimal text that needs no rounding (what NUMERIC(18,2) columns
 * return): the trailing zeros of the fraction dropped, no negative zero; undefined for any other
 * text. Every request that shows a balance goes through here, and decimal.js costs more than this.
 */
export function plainMoneyText(text: string): string | undefined {
  const m = AT_MOST_TWO_DECIMALS.exec(text);
  if (!m) return undefined;
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (m[2] === '0' && fraction === '') return '0';
  return `${m[1]}${m[2]}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The one bound of every amount a request may carry (a top-up, a price, a coupon value, a bonus
 * cap, a redeem code, a balance adjustment, a minimum top-up): at most 1,000,000,000 with at most 2
 * decimals. It keeps every figure derived from an input inside its column: a monthly price's
 * hourly price (monthly / 730 ≤ 1,369,863.013699 in NUMERIC(18,6)) and that price times the largest
 * metered quantity (METER_QUANTITY_MAX of the charging module, one usage record in NUMERIC(20,6));
 * `test/charging/bounds.test.ts` checks the arithmetic against the columns.
 */
export const MONEY_INPUT_MAX = '1000000000';

/** The rule's words, for field errors: "a positive amount with at most 2 decimals, at most 1000000000". */
export function moneyInputRule(positive: boolean): string {
  return `must be ${positive ? 'a positive' : 'a non-negative'} amount with at most 2 decimals, at most ${MONEY_INPUT_MAX}`;
}

/** Whether `value` is an amount a request may carry (see MONEY_INPUT_MAX): > 0 when `positive`, else ≥ 0. */
export function isMoneyInput(value: MoneyInput, positive: boolean): boolean {
  if (!isMoneyAmount(value)) return false;
  const d = new Decimal(value);
  return (positive ? d.gt(0) : d.gte(0)) && d.lte(MONEY_INPUT_MAX);
}

/** At most 2 decimals, finite, within NUMERIC(18,2). */
export function isMoneyAmount(value: MoneyInput): boolean {
  try {
    const d = new Decimal(value);
    return d.isFinite() && d.decimalPlaces() <= 2 && d.abs().lt('1e16');
  } catch {
    return false;
  }
}

/** Hours in a billing month: an hourly price is the monthly price divided by this. */
export const HOURS_PER_MONTH = 730;

/**
 * A rate (an hourly price, an hourly cost, a metered usage amount) as a decimal text of exactly 6
 * decimals, rounded half up: what the NUMERIC(18,6) and NUMERIC(20,6) columns hold.
 */
export function rateText(value: MoneyInput): string {
  return new Decimal(value).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6);
}

/** A rate field of a response (a plain JSON number, not a `Money` schema): at most 6 decimals. */
export function rateJson(value: MoneyInput): number {
  return Number(rateText(value));
}

/** The hourly price of a monthly price: monthly / HOURS_PER_MONTH, 6 decimals, half up. */
export function hourlyOf(monthly: MoneyInput): string {
  return rateText(new Decimal(monthly).div(HOURS_PER_MONTH));
}

/**
 * A percent bonus on an amount (a coupon, a first top-up, a referral): amount × percent / 100,
 * rounded down to the cent, then capped at `cap` when there is one. Two decimals.
 */
export function percentBonus(amount: MoneyInput, percent: MoneyInput, cap: MoneyInput | null): string {
  let bonus = new Decimal(amount).times(percent).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  if (cap !== null && bonus.gt(cap)) bonus = new Decimal(cap);
  return bonus.toFixed(2);
}

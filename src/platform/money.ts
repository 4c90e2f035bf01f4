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

import { dec, type MoneyInput } from './money.js';

/**
 * Money as a person reads it in a mail or a document: the currency, thousands grouped with commas,
 * and cents only when there are some ("IDR 504,000", "IDR 1,250.50", "-IDR 20,000"). Computed on
 * the decimal text, never through a float.
 */
export function displayMoney(value: MoneyInput, currency: string): string {
  const d = dec(value);
  const fixed = d.abs().toFixed(2);
  const [whole, cents] = fixed.split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${currency} ${grouped}${cents === '00' ? '' : `.${cents}`}`;
}

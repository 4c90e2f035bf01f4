import { Decimal, dec } from '../../platform/money.js';

/**
 * Rounds each line's exact usage to cents so the lines add up to the invoice subtotal exactly
 * (largest remainder): every line gets its amount rounded down, and the cents left go one by one
 * to the lines with the largest remainders (or, if the carried sub-cent remainders made the
 * subtotal smaller, are taken from the smallest).
 */
export function distribute<T extends { usage_amount: string }>(lines: T[], subtotal: string): (T & { amount: string })[] {
  const floors = lines.map((l) => dec(l.usage_amount).toDecimalPlaces(2, Decimal.ROUND_DOWN));
  let left = dec(subtotal).minus(floors.reduce((s, f) => s.plus(f), new Decimal(0))).times(100).round().toNumber();
  const order = lines.map((l, i) => ({ i, rem: dec(l.usage_amount).minus(floors[i]!) })).sort((a, b) => b.rem.cmp(a.rem) || a.i - b.i);
  const amounts = [...floors];
  for (let k = 0; left > 0 && lines.length > 0; k = (k + 1) % lines.length, left--) amounts[order[k]!.i] = amounts[order[k]!.i]!.plus('0.01');
  for (let k = lines.length - 1; left < 0 && lines.length > 0; k = (k - 1 + lines.length) % lines.length) {
    const i = order[k]!.i;
    if (amounts[i]!.gte('0.01')) {
      amounts[i] = amounts[i]!.minus('0.01');
      left++;
    }
  }
  return lines.map((l, i) => ({ ...l, amount: amounts[i]!.toFixed(2) }));
}

import { dec, hourlyOf, rateText } from '../../platform/money.js';

/**
 * Object storage is billed on the provisioned size (the bucket's quota), per GB-hour, by tiers
 * over the customer's total provisioned GB at one location (marginal, like a tax). Today there is
 * one tier, the base price for every GB, because that is what the hourly charge bills (one meter
 * per bucket at the component's price): the price a customer is shown is the price they pay. A
 * volume discount is a new tier here together with the same rule in the charge.
 */
export const STORAGE_PRICE_TIERS: readonly { fromGb: number; toGb: number | null; factor: string }[] = [{ fromGb: 0, toGb: null, factor: '1' }];

export interface PriceTier {
  from_gb: number;
  to_gb: number | null;
  /** decimal strings: monthly to 2 decimals, hourly (hourlyOf) to 6 */
  price_per_gb_month: string;
  price_per_gb_hour: string;
}

/** The tiers for a base price of one GB-month. */
export function priceTiers(baseGbMonth: string): PriceTier[] {
  return STORAGE_PRICE_TIERS.map((t) => {
    const monthly = dec(baseGbMonth).times(t.factor).toDecimalPlaces(2);
    return { from_gb: t.fromGb, to_gb: t.toGb, price_per_gb_month: monthly.toFixed(2), price_per_gb_hour: hourlyOf(monthly) };
  });
}

/** What `totalGb` provisioned GB cost for one hour under these tiers (6 decimals). */
export function hourlyCost(totalGb: number, tiers: PriceTier[]): string {
  let sum = dec(0);
  for (const t of tiers) {
    const upper = t.to_gb ?? Number.POSITIVE_INFINITY;
    const inTier = Math.max(0, Math.min(totalGb, upper) - t.from_gb);
    if (inTier > 0) sum = sum.plus(dec(t.price_per_gb_hour).times(inTier));
  }
  return rateText(sum);
}

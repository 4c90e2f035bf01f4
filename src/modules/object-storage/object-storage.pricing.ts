import { dec } from '../../platform/money.js';

/**
 * Object storage is billed on the provisioned size (the bucket's quota), per GB-hour, in tiers
 * over the customer's total provisioned GB at one location, like a marginal tax: the first 100 GB
 * at the base price, the next 900 GB at 90 %, everything above 1,000 GB at 80 %.
 */
export const STORAGE_PRICE_TIERS: readonly { fromGb: number; toGb: number | null; factor: string }[] = [
  { fromGb: 0, toGb: 100, factor: '1' },
  { fromGb: 100, toGb: 1000, factor: '0.9' },
  { fromGb: 1000, toGb: null, factor: '0.8' },
];

export interface PriceTier {
  from_gb: number;
  to_gb: number | null;
  /** decimal strings: monthly to 2 decimals, hourly (monthly / 730) to 6 */
  price_per_gb_month: string;
  price_per_gb_hour: string;
}

/** The tiers for a base price of one GB-month. */
export function priceTiers(baseGbMonth: string): PriceTier[] {
  return STORAGE_PRICE_TIERS.map((t) => {
    const monthly = dec(baseGbMonth).times(t.factor).toDecimalPlaces(2);
    return { from_gb: t.fromGb, to_gb: t.toGb, price_per_gb_month: monthly.toFixed(2), price_per_gb_hour: monthly.div(730).toDecimalPlaces(6).toFixed(6) };
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
  return sum.toDecimalPlaces(6).toFixed(6);
}

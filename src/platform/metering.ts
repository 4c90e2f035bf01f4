import type { Executor } from './db/database.js';

/**
 * The one port through which a resource module meters itself: it opens a meter in the transaction
 * that makes a resource cost money and closes it in the one that ends it, with its own price keys
 * and descriptions. The charging module implements it (MeteringService); no resource module
 * imports charging.
 */
export interface Meter {
  customerId: number;
  /** vm, network, load_balancer, bucket, ... */
  resourceType: string;
  resourceId: string | number;
  /** shown on invoices: "VM web-1" */
  description: string;
  /** a price_versions key: tier:<id>, component:<id>, storage_tier:<id>, tier:<id>:component:<id> */
  priceKey: string;
  /** the key charged while `priceKey` has no price in force (a tier's own component price falls back on the location's) */
  fallbackPriceKey?: string;
  locationId: number;
  /** units of the price (default 1): GB for storage */
  quantity?: string | number;
  /** when the resource started costing money (the caller's clock) */
  at: Date;
}

export interface Metering {
  /** Opening an open meter (same resource and price key) is a no-op. */
  open(meter: Meter, tx: Executor): Promise<unknown>;
  /** Closes the resource's open meters (or only the one of `priceKey`); answers how many. */
  close(resourceType: string, resourceId: string | number, at: Date, opts: { tx?: Executor; priceKey?: string }): Promise<number>;
}

/** For a container without charging (tools): meters nothing. */
export const noMetering: Metering = {
  open: async () => undefined,
  close: async () => 0,
};

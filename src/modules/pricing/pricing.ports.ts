/**
 * One billable thing and what it is priced by: Σ quantity × monthly price of each key, or of its
 * `fallbackKey` while the key has no price in force (a tier's own component price falls back on
 * the location's).
 */
export interface PricedResource {
  resourceType: string;
  resourceId: number;
  items: { priceKey: string; fallbackKey?: string; quantity: number }[];
}

/** Running resources of a location and their price keys (the compute module implements it). */
export interface PricedResourcesReader {
  runningIn(locationId: number): Promise<PricedResource[]>;
}



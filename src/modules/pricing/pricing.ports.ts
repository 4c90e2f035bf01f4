/** One billable thing and what it is priced by: Σ quantity × monthly price of each key. */
export interface PricedResource {
  resourceType: string;
  resourceId: number;
  items: { priceKey: string; quantity: number }[];
}

/** Running resources of a location and their price keys (the compute module implements it). */
export interface PricedResourcesReader {
  runningIn(locationId: number): Promise<PricedResource[]>;
}

export const noPricedResources: PricedResourcesReader = { runningIn: async () => [] };


import type { PricedResource, PricedResourcesReader } from '../modules/pricing/index.js';

/** The modules whose running resources a price change applies to. */
export interface RunningResourcesSources {
  compute: PricedResourcesReader;
  networks: PricedResourcesReader;
}

/**
 * What runs in a location, for the revenue impact of a price schedule: VMs and private networks.
 * The sources are passed as a function because pricing is built before compute and networks
 * (they price themselves through it).
 */
export function runningResources(sources: () => RunningResourcesSources): PricedResourcesReader {
  return {
    async runningIn(locationId): Promise<PricedResource[]> {
      const s = sources();
      return [...(await s.compute.runningIn(locationId)), ...(await s.networks.runningIn(locationId))];
    },
  };
}

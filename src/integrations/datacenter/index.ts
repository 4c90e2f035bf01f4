import { SimulatedDatacenter, type SimulatedDatacenterOptions } from './simulated.js';
import type { Datacenter } from './types.js';

export * from './types.js';
export { SimulatedDatacenter, type SimulatedDatacenterOptions } from './simulated.js';
export { usableAddresses } from './ip-pool.js';

export interface DatacenterConfig {
  /** 'simulated' is the only adapter shipped; a real one plugs in here. */
  kind: 'simulated';
  delayMs: number;
}

export function createDatacenter(config: DatacenterConfig, options: SimulatedDatacenterOptions = {}): Datacenter {
  switch (config.kind) {
    case 'simulated':
      return new SimulatedDatacenter({ ...options, delayMs: config.delayMs });
  }
}

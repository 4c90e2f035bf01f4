import type { Datacenter } from '../../src/integrations/datacenter/index.js';

/** The calls that reach the datacenter (publicIpPool is configuration, not a call). */
const CALLS = [
  'createVm',
  'startVm',
  'stopVm',
  'deleteVm',
  'hypervisors',
  'createNetwork',
  'deleteNetwork',
  'attachIp',
  'detachIp',
  'applySecurityGroup',
  'deleteSecurityGroup',
  'applyLoadBalancer',
  'deleteLoadBalancer',
] as const satisfies readonly (keyof Datacenter)[];

export interface CallCounter {
  total(): number;
  byCall(): Record<string, number>;
  reset(): void;
}

/** Wraps the datacenter's calls in place (the services hold this very object) and counts them. */
export function countDatacenterCalls(dc: Datacenter): CallCounter {
  const counts = new Map<string, number>();
  const target = dc as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of CALLS) {
    const original = target[name]!.bind(dc);
    target[name] = (...args: unknown[]) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return original(...args);
    };
  }
  return {
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    byCall: () => Object.fromEntries(counts),
    reset: () => counts.clear(),
  };
}

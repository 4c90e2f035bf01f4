import type { Datacenter } from '../../src/integrations/datacenter/index.js';

/** The calls that reach the datacenter, by capability (publicIpPool is configuration, not a call). */
const CALLS = {
  vmHosts: ['createVm', 'startVm', 'stopVm', 'deleteVm', 'hypervisors'],
  networkFabric: ['createNetwork', 'deleteNetwork', 'attachIp', 'detachIp'],
  firewalls: ['applySecurityGroup', 'deleteSecurityGroup'],
  balancers: ['applyLoadBalancer', 'deleteLoadBalancer'],
  consoles: ['open'],
  snapshots: ['takeSnapshot', 'restoreSnapshot', 'deleteSnapshot'],
  backups: ['copyDisk', 'diskSize', 'writeDisk'],
  metrics: ['readCounters'],
} as const satisfies { [K in Exclude<keyof Datacenter, 'kind'>]: readonly (keyof Datacenter[K])[] };

export interface CallCounter {
  total(): number;
  byCall(): Record<string, number>;
  reset(): void;
}

/** Wraps the datacenter's calls in place (the services hold these very objects) and counts them. */
export function countDatacenterCalls(dc: Datacenter): CallCounter {
  const counts = new Map<string, number>();
  for (const [capability, names] of Object.entries(CALLS) as [keyof typeof CALLS, readonly string[]][]) {
    const target = dc[capability] as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = target[name]!.bind(target);
      target[name] = (...args: unknown[]) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return original(...args);
      };
    }
  }
  return {
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    byCall: () => Object.fromEntries(counts),
    reset: () => counts.clear(),
  };
}

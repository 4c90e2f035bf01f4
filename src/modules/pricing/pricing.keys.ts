import { Decimal } from '../../platform/money.js';

/** price_versions.price_key of each priced thing (the contract charging reads). */
export const tierKey = (id: number) => `tier:${id}`;
export const storageTierKey = (id: number) => `storage_tier:${id}`;
export const componentKey = (id: number) => `component:${id}`;
/**
 * A tier's own price of a component (a cheaper public IP on one tier): it takes precedence over
 * the location's `component:<id>` price for the VMs on that tier, which is the fallback while the
 * tier has none in force.
 */
export const tierComponentKey = (tierId: number, componentId: number) => `tier:${tierId}:component:${componentId}`;
/**
 * The components a tier may carry its own price of: those a VM on the tier is metered by besides
 * its package (`vm_tier`). vCPU, RAM and disk are the package; networks, volumes, buckets and
 * balancers are billed as resources of their own, whatever tier a VM has.
 */
export const TIER_OWN_PRICE_COMPONENTS: readonly string[] = ['public_ip'];
/** The prefix of every tier-specific component price of a tier. */
export const tierComponentPrefix = (tierId: number) => `tier:${tierId}:component:`;

export type ParsedKey =
  | { kind: 'tier' | 'storage_tier' | 'component'; id: number }
  | { kind: 'tier_component'; id: number; componentId: number };

export function parseKey(key: string): ParsedKey | undefined {
  const own = /^tier:(\d+):component:(\d+)$/.exec(key);
  if (own) return { kind: 'tier_component', id: Number(own[1]), componentId: Number(own[2]) };
  const m = /^(tier|storage_tier|component):(\d+)$/.exec(key);
  return m ? { kind: m[1] as 'tier' | 'storage_tier' | 'component', id: Number(m[2]) } : undefined;
}

/** The components every location prices (seeded; codes are stable). */
export const COMPONENTS = [
  { code: 'vcpu', name: 'vCPU', type: 'compute', unit: 'vCPU', monthly: '73000.00' },
  { code: 'ram_gb', name: 'RAM', type: 'compute', unit: 'GB', monthly: '36500.00' },
  { code: 'disk_gb', name: 'Disk', type: 'storage', unit: 'GB', monthly: '1460.00' },
  { code: 'public_ip', name: 'Public IP', type: 'network', unit: 'IP', monthly: '36500.00' },
  { code: 'private_network', name: 'Private network', type: 'network', unit: 'network', monthly: '0.00' },
  { code: 'object_storage_gb', name: 'Object storage', type: 'storage', unit: 'GB', monthly: '730.00' },
  { code: 'block_storage_gb', name: 'Block storage', type: 'storage', unit: 'GB', monthly: '1460.00' },
  { code: 'snapshot_gb', name: 'Snapshots', type: 'storage', unit: 'GB', monthly: '730.00' },
  { code: 'load_balancer', name: 'Load balancer', type: 'network', unit: 'balancer', monthly: '146000.00' },
] as const;

/** Monthly price of a tier from its size and the default component prices (seed only). */
export function defaultTierMonthly(t: { cpu: number; memoryMb: number }): string {
  return new Decimal(t.cpu).times(73000).plus(new Decimal(t.memoryMb).div(1024).times(36500)).toFixed(2);
}

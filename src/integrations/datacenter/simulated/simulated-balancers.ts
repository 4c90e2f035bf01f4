import type { Balancers, LoadBalancerSpec, ProvisionedLoadBalancer } from '../balancers.js';
import type { SimulatedHosts } from './simulated-hosts.js';

/** Load balancers of the simulated datacenter: recorded as last applied, each with an address of 203.0.113.0/24. */
export class SimulatedBalancers implements Balancers {
  private readonly balancers = new Map<string, { spec: LoadBalancerSpec; applied: number; externalId: string; address: string }>();
  private seq = 0;

  constructor(private readonly hosts: SimulatedHosts) {}

  async applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer> {
    await this.hosts.call('load_balancer');
    const prev = this.balancers.get(spec.reference);
    const externalId = prev?.externalId ?? `sim-lb-${++this.seq}`;
    const address = prev?.address ?? `203.0.113.${(this.seq % 254) + 1}`;
    this.balancers.set(spec.reference, { spec: structuredClone(spec), applied: (prev?.applied ?? 0) + 1, externalId, address });
    return { externalId, address };
  }

  async deleteLoadBalancer(reference: string): Promise<void> {
    await this.hosts.call('load_balancer');
    this.balancers.delete(reference);
  }

  /** For tests: the balancer as last applied. */
  loadBalancerOf(reference: string): { spec: LoadBalancerSpec; applied: number; address: string } | undefined {
    return this.balancers.get(reference);
  }
}

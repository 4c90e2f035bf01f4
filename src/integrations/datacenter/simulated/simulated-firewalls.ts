import type { Firewalls, SecurityGroupSpec } from '../firewalls.js';
import type { SimulatedHosts } from './simulated-hosts.js';

/** Security groups of the simulated datacenter: recorded as last applied. */
export class SimulatedFirewalls implements Firewalls {
  /** Security groups as last applied, by reference, with how many times each was applied. */
  private readonly groups = new Map<string, { spec: SecurityGroupSpec; applied: number }>();

  constructor(private readonly hosts: SimulatedHosts) {}

  async applySecurityGroup(spec: SecurityGroupSpec): Promise<void> {
    await this.hosts.call('security_group');
    const prev = this.groups.get(spec.reference);
    this.groups.set(spec.reference, { spec: structuredClone(spec), applied: (prev?.applied ?? 0) + 1 });
  }

  async deleteSecurityGroup(reference: string): Promise<void> {
    await this.hosts.call('security_group');
    this.groups.delete(reference);
  }

  /** For tests: the security group as last applied (undefined when absent) and how often it was applied. */
  securityGroupOf(reference: string): { spec: SecurityGroupSpec; applied: number } | undefined {
    return this.groups.get(reference);
  }
}

import { FirewallError, type Firewalls, type SecurityGroupSpec } from '../firewalls.js';
import { cidrText } from './addresses.js';
import { firewallScript, type FirewallState } from './firewall.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { validReference } from './names.js';

/**
 * Security groups as nftables rules in the adapter's own tables, rebuilt as a whole on each
 * hypervisor of the location from the groups' desired state (a JSON file in its state directory)
 * and the VMs defined on it.
 */
export class LibvirtFirewalls implements Firewalls {
  constructor(private readonly access: HostAccess) {}

  async applySecurityGroup(spec: SecurityGroupSpec): Promise<void> {
    const { access } = this;
    access.checkReference(spec.reference, 'security_group');
    for (const m of spec.machines) access.checkReference(m, 'security_group');
    // refuse a rule nftables cannot take before anything changes
    const probe = firewallScript(access.names, { state: { groups: { [spec.reference]: { rules: spec.rules, machines: ['probe'] } } }, vms: [{ reference: 'probe', publicIp: null }], publicBridges: [] });
    if (probe.errors.length > 0) throw new FirewallError('security_group', probe.errors.join('; '));
    return access.serial(`sg:${spec.reference}`, () =>
      access.wrap('security_group', async () => {
        await Promise.all(
          access.hypervisorsOf(spec.locationId, 'security_group').map((hv) =>
            this.changeGroups(hv, (s) => {
              s.groups[spec.reference] = { rules: spec.rules, machines: [...spec.machines] };
            }),
          ),
        );
      }),
    );
  }

  async deleteSecurityGroup(reference: string): Promise<void> {
    if (!validReference(reference)) return;
    const { access } = this;
    return access.serial(`sg:${reference}`, () =>
      access.wrap('security_group', async () => {
        await Promise.all(
          access.hypervisorList.map(async (hv) => {
            if (!(reference in (await this.readFirewall(hv)).groups)) return;
            await this.changeGroups(hv, (s) => {
              delete s.groups[reference];
            });
          }),
        );
      }),
    );
  }

  /**
   * Rebuilds the host's nftables tables from the groups' desired state and the VMs defined on it
   * (also when a VM boots or is deleted: after a host restart the tables are gone).
   */
  async applyFirewall(hv: Hypervisor): Promise<void> {
    const { names } = this.access;
    await hv.host.sh('mkdir -p "$1"', [hv.config.stateDir]);
    await hv.host.withLock(hv.config.stateDir, `${names.prefix}-firewall`, async () => {
      const state = await this.readFirewall(hv);
      const domains = (await hv.virsh.list()).map((d) => names.referenceOf(d)).filter((r): r is string => r !== undefined);
      const members = new Set(Object.values(state.groups).flatMap((g) => g.machines));
      const vms = await Promise.all(
        domains.map(async (reference) => {
          if (!members.has(reference)) return { reference, publicIp: null };
          return { reference, publicIp: (await this.access.metadataOf(hv, reference))?.publicIp ?? null };
        }),
      );
      const loc = hv.location;
      const { script, errors } = firewallScript(names, {
        state,
        vms,
        publicBridges: [{ name: hv.config.publicBridge, network: cidrText(loc.publicNetwork), egress: loc.publicEgress }],
      });
      if (errors.length > 0) throw new FirewallError('security_group', errors.join('; '));
      await hv.host.run(['nft', '-f', '-'], { input: script });
    });
  }

  private async readFirewall(hv: Hypervisor): Promise<FirewallState> {
    const text = await hv.host.readFile(this.access.names.firewallFile(hv.config.stateDir));
    return text ? (JSON.parse(text) as FirewallState) : { groups: {} };
  }

  private async changeGroups(hv: Hypervisor, change: (state: FirewallState) => void): Promise<void> {
    const { names } = this.access;
    await hv.host.sh('mkdir -p "$1"', [hv.config.stateDir]);
    await hv.host.withLock(hv.config.stateDir, `${names.prefix}-firewall-state`, async () => {
      const state = await this.readFirewall(hv);
      change(state);
      await hv.host.writeFile(names.firewallFile(hv.config.stateDir), JSON.stringify(state, null, 2));
    });
    await this.applyFirewall(hv);
  }
}

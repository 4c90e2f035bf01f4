import { BalancerError, type Balancers, type LoadBalancerSpec, type ProvisionedLoadBalancer } from '../balancers.js';
import { allAddresses, cidrText, gatewayOf, isHostAddress, type Cidr } from './addresses.js';
import { haproxyConfig } from './haproxy.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { ensureBalancerNamespace, removeBalancer, startOrReloadHaproxy } from './host-network.js';
import { validReference } from './names.js';

interface BalancerRecord {
  reference: string;
  locationId: number;
  address: string;
}

/**
 * Load balancers: one HAProxy per balancer, in its own namespace on the public bridge of the
 * location's first hypervisor, with an address from the location's `loadBalancerAddresses` kept in
 * the balancer's state file (so a re-apply keeps it).
 */
export class LibvirtBalancers implements Balancers {
  constructor(private readonly access: HostAccess) {}

  async applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer> {
    const { access } = this;
    access.checkReference(spec.reference, 'load_balancer');
    return access.serial(`lb:${spec.reference}`, () =>
      access.wrap('load_balancer', async () => {
        const location = access.config.locations.get(spec.locationId);
        if (!location) throw new BalancerError('load_balancer', `location ${spec.locationId} has no hypervisors configured`);
        const block = location.loadBalancerAddresses;
        if (!block) throw new BalancerError('load_balancer', `location ${spec.locationId} has no loadBalancerAddresses configured`);
        const hvs = access.hypervisorsOf(location.id, 'load_balancer');
        const targets = await Promise.all(
          spec.targets.map(async (t) => {
            const found = await access.findDomain(t, hvs);
            const ip = found ? (await access.metadataOf(found.hv, t))?.publicIp : null;
            if (!found || !ip) throw new BalancerError('load_balancer', found ? `target ${t} has no public address` : `target ${t} does not exist`);
            return { reference: t, address: ip };
          }),
        );
        const home = hvs[0]!;
        await access.prepareHost(home);
        const c = home.config;
        const n = access.names;
        const record = await home.host.withLock(c.stateDir, `${n.prefix}-balancers`, async () => {
          const file = n.balancerFile(c.stateDir, spec.reference);
          const existing = await home.host.readFile(file);
          if (existing) return JSON.parse(existing) as BalancerRecord;
          const address = await this.freeAddress(home, location.publicNetwork, block);
          const rec: BalancerRecord = { reference: spec.reference, locationId: location.id, address };
          await home.host.writeFile(file, JSON.stringify(rec, null, 2));
          return rec;
        });
        let cfg: string;
        try {
          cfg = haproxyConfig(spec, record.address, targets);
        } catch (err) {
          throw new BalancerError('load_balancer', (err as Error).message);
        }
        const namespace = n.balancerNamespace(spec.reference);
        await ensureBalancerNamespace(home.host, {
          namespace,
          vethHost: n.balancerVethHost(spec.reference),
          vethInside: n.balancerVethInside(spec.reference),
          bridge: c.publicBridge,
          address: `${record.address}/${location.publicNetwork.prefix}`,
          gateway: gatewayOf(location.publicNetwork),
        });
        await startOrReloadHaproxy(home.host, namespace, n.balancerConfig(c.stateDir, spec.reference), n.balancerPid(c.stateDir, spec.reference), cfg);
        return { externalId: n.domain(spec.reference), address: record.address };
      }),
    );
  }

  async deleteLoadBalancer(reference: string): Promise<void> {
    if (!validReference(reference)) return;
    const { access } = this;
    return access.serial(`lb:${reference}`, () =>
      access.wrap('load_balancer', async () => {
        const n = access.names;
        await Promise.all(
          access.hypervisorList.map(async (hv) => {
            const c = hv.config;
            if ((await hv.host.readFile(n.balancerFile(c.stateDir, reference))) === null) return;
            await removeBalancer(hv.host, n.balancerNamespace(reference), n.balancerPid(c.stateDir, reference), [
              n.balancerConfig(c.stateDir, reference),
              `${n.balancerConfig(c.stateDir, reference)}.new`,
              n.balancerPid(c.stateDir, reference),
              n.balancerFile(c.stateDir, reference),
            ]);
          }),
        );
      }),
    );
  }

  private async freeAddress(home: Hypervisor, network: Cidr, block: Cidr): Promise<string> {
    const list = await home.host.sh('ls -1 "$1"/"$2"-lb-*.json 2>/dev/null || true', [home.config.stateDir, this.access.names.prefix]);
    const used = new Set<string>();
    for (const file of list.stdout.split('\n').filter(Boolean)) {
      const text = await home.host.readFile(file);
      if (text) used.add((JSON.parse(text) as BalancerRecord).address);
    }
    const free = allAddresses(block).find((a) => isHostAddress(network, a) && !used.has(a));
    if (!free) throw new BalancerError('load_balancer', `no free balancer address left in ${cidrText(block)}`, true);
    return free;
  }
}

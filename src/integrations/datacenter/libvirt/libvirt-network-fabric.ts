import { datacenterError, type DatacenterOperation } from '../datacenter.js';
import { NetworkFabricError, type IpAttachment, type NetworkFabric, type NetworkSpec } from '../network-fabric.js';
import type { DatacenterRef } from '../shared.js';
import { cidrText, gatewayOf, intToIp, isHostAddress, netmaskOf, parseCidr } from './addresses.js';
import type { LocationConfig } from './config.js';
import type { ConfigDrives } from './config-drive.js';
import { interfaceXml, parseDomainXml, type NicSpec } from './domain-xml.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { ensureDhcp, ensureNetworkLinks, reloadDhcp, removeNetwork } from './host-network.js';
import { validReference } from './names.js';

/** A private network as recorded on its home hypervisor (the location's first). */
interface NetworkRecord {
  reference: string;
  locationId: number;
  cidr: string;
  /** ip → the machine holding it and the MAC of its NIC */
  attachments: Record<string, { vm: string; mac: string }>;
}

/**
 * Private networks: a bridge per network on every hypervisor of the location (VXLAN between
 * them), with a namespace on the location's first hypervisor holding the gateway and dnsmasq,
 * which gives each NIC the address reserved for its MAC. The VMs' side (a reservation made while
 * creating a VM, the bridges a VM needs before it starts, a deleted VM's reservations) is here too.
 */
export class LibvirtNetworkFabric implements NetworkFabric {
  constructor(
    private readonly access: HostAccess,
    private readonly drives: ConfigDrives,
  ) {}

  async createNetwork(spec: NetworkSpec): Promise<{ externalId: string }> {
    const { access } = this;
    access.checkReference(spec.reference, 'create_network');
    const cidr = parseCidr(spec.cidr);
    if (!cidr) throw new NetworkFabricError('create_network', `not a private range: ${spec.cidr}`);
    return access.serial(`net:${spec.reference}`, () =>
      access.wrap('create_network', async () => {
        const hvs = access.hypervisorsOf(spec.locationId, 'create_network');
        const home = hvs[0]!;
        await Promise.all(hvs.map((hv) => access.prepareHost(hv)));
        const record = await home.host.withLock(home.config.stateDir, `${access.names.prefix}-networks`, async () => {
          const existing = await this.readNetwork(spec.reference);
          const rec: NetworkRecord = existing?.record ?? { reference: spec.reference, locationId: spec.locationId, cidr: cidrText(cidr), attachments: {} };
          if (!existing) await this.writeNetwork(home, rec);
          return rec;
        });
        await Promise.all(hvs.map((hv) => this.ensureNetworkOn(hv, record)));
        await reloadDhcp(home.host, access.names.dhcpPid(home.config.stateDir, spec.reference));
        return { externalId: access.names.domain(spec.reference) };
      }),
    );
  }

  async deleteNetwork(network: DatacenterRef): Promise<void> {
    const { access } = this;
    const ref = access.refOf(network);
    if (!validReference(ref)) return;
    return access.serial(`net:${ref}`, () =>
      access.wrap('delete_network', async () => {
        const found = await this.readNetwork(ref);
        if (!found) return;
        // NICs still on it leave first, so no VM keeps a NIC on a bridge that is gone
        for (const [ip, a] of Object.entries(found.record.attachments)) {
          await this.unplug({ network: { externalId: null, reference: ref }, vm: { externalId: null, reference: a.vm }, ip }, found.record);
        }
        const n = access.names;
        await Promise.all(
          access.hypervisorsOf(found.record.locationId, 'delete_network').map((hv) =>
            removeNetwork(hv.host, {
              bridge: n.bridge(ref),
              vxlan: n.vxlan(ref),
              namespace: n.networkNamespace(ref),
              vethHost: n.dhcpVethHost(ref),
              pidFile: n.dhcpPid(hv.config.stateDir, ref),
              files: [n.networkFile(hv.config.stateDir, ref), n.dhcpHosts(hv.config.stateDir, ref), n.dhcpPid(hv.config.stateDir, ref)],
            }),
          ),
        );
      }),
    );
  }

  async attachIp(a: IpAttachment): Promise<void> {
    const { access } = this;
    const vmRef = access.refOf(a.vm);
    return access.serial(`vm:${vmRef}`, () =>
      access.wrap('attach_ip', async () => {
        const found = await access.findDomain(vmRef);
        if (!found) throw new NetworkFabricError('attach_ip', `machine ${vmRef} does not exist`);
        const nic = await this.reserve({ ...a, vm: { externalId: null, reference: vmRef } }, found.hv.location, found.hv, 'attach_ip');
        await this.plug(found.hv, vmRef, nic, found.state === 'running');
        await this.drives.refresh(found.hv, vmRef);
      }),
    );
  }

  async detachIp(a: IpAttachment): Promise<void> {
    const { access } = this;
    const vmRef = access.refOf(a.vm);
    const netRef = access.refOf(a.network);
    return access.serial(`vm:${vmRef}`, () =>
      access.wrap('detach_ip', async () => {
        const found = await this.readNetwork(netRef);
        if (!found || found.record.attachments[a.ip]?.vm !== vmRef) return;
        await this.unplug({ ...a, vm: { externalId: null, reference: vmRef } }, found.record);
      }),
    );
  }

  // ---------------------------------------------------------------- for VmHosts

  /**
   * Reserves the address for the VM's NIC on the network (DHCP by MAC) and returns that NIC; its
   * failures are failures of `operation` (a VM's create, or an attach).
   */
  async reserve(a: IpAttachment, location: LocationConfig, vmHost: Hypervisor, operation: DatacenterOperation): Promise<NicSpec> {
    const { access } = this;
    const names = access.names;
    const netRef = access.refOf(a.network);
    const vmRef = a.vm.reference;
    const home = access.home(location.id, operation);
    const record = await home.host.withLock(home.config.stateDir, `${names.prefix}-networks`, async () => {
      const found = await this.readNetwork(netRef);
      if (!found || found.record.locationId !== location.id) throw datacenterError(operation, `network ${netRef} does not exist in location ${location.id}`);
      const rec = found.record;
      const cidr = parseCidr(rec.cidr)!;
      if (!isHostAddress(cidr, a.ip)) throw datacenterError(operation, `address ${a.ip} is not a host address of ${rec.cidr}`);
      const holder = rec.attachments[a.ip];
      if (holder && holder.vm !== vmRef) throw datacenterError(operation, `address ${a.ip} is attached to another machine`);
      if (!holder) {
        rec.attachments[a.ip] = { vm: vmRef, mac: names.privateMac(vmRef, netRef, a.ip) };
        await this.writeNetwork(home, rec);
      }
      return rec;
    });
    await this.ensureNetworkOn(vmHost, record);
    return { mac: names.privateMac(vmRef, netRef, a.ip), bridge: names.bridge(netRef), tap: names.privateTap(vmRef, netRef, a.ip) };
  }

  /** A deleted VM's reservations leave every network that held them. */
  async releaseAddresses(vmRef: string, where: Hypervisor[]): Promise<void> {
    const { access } = this;
    const homes = [...new Set(where.map((hv) => access.home(hv.location.id, 'delete')))];
    for (const home of homes) {
      await home.host.withLock(home.config.stateDir, `${access.names.prefix}-networks`, async () => {
        for (const rec of await this.recordsOn(home)) {
          const held = Object.entries(rec.attachments).filter(([, a]) => a.vm === vmRef);
          if (held.length === 0) continue;
          for (const [ip] of held) delete rec.attachments[ip];
          await this.writeNetwork(home, rec);
        }
      });
    }
  }

  /** Before a start: the bridges of the networks its NICs are on exist on its host (after a host restart they do not). */
  async ensureNetworksOf(hv: Hypervisor, vmRef: string): Promise<void> {
    const { access } = this;
    const xml = await hv.virsh.dumpXml(access.names.domain(vmRef), true);
    if (!xml) return;
    const bridges = new Set(parseDomainXml(xml).nics.map((n) => n.bridge).filter((b) => b !== hv.config.publicBridge));
    if (bridges.size === 0) return;
    const home = access.home(hv.location.id, 'start');
    for (const rec of await this.recordsOn(home)) {
      if (bridges.has(access.names.bridge(rec.reference))) {
        await this.ensureNetworkOn(hv, rec);
        if (hv !== home) await this.ensureNetworkOn(home, rec);
      }
    }
  }

  // ---------------------------------------------------------------- records and links

  /** Every network record kept on this home hypervisor. */
  private async recordsOn(home: Hypervisor): Promise<NetworkRecord[]> {
    const list = await home.host.sh('ls -1 "$1"/"$2"-net-*.json 2>/dev/null || true', [home.config.stateDir, this.access.names.prefix]);
    const records: NetworkRecord[] = [];
    for (const file of list.stdout.split('\n').filter(Boolean)) {
      const text = await home.host.readFile(file);
      if (text) records.push(JSON.parse(text) as NetworkRecord);
    }
    return records;
  }

  private async readNetwork(reference: string): Promise<{ hv: Hypervisor; record: NetworkRecord } | null> {
    const { access } = this;
    const homes = [...access.config.locations.values()].map((l) => access.home(l.id, 'create_network'));
    const found = await Promise.all(
      homes.map(async (hv) => {
        const text = await hv.host.readFile(access.names.networkFile(hv.config.stateDir, reference));
        return text ? { hv, record: JSON.parse(text) as NetworkRecord } : null;
      }),
    );
    return found.find((f) => f !== null) ?? null;
  }

  private async writeNetwork(hv: Hypervisor, record: NetworkRecord): Promise<void> {
    const c = hv.config;
    const names = this.access.names;
    await hv.host.writeFile(names.networkFile(c.stateDir, record.reference), JSON.stringify(record, null, 2));
    const hosts = Object.entries(record.attachments)
      .map(([ip, a]) => `${a.mac},${ip}\n`)
      .join('');
    await hv.host.writeFile(names.dhcpHosts(c.stateDir, record.reference), hosts);
    await reloadDhcp(hv.host, names.dhcpPid(c.stateDir, record.reference));
  }

  /** The network's bridge (and VXLAN) on one hypervisor; on its home also the namespace with dnsmasq. */
  private async ensureNetworkOn(hv: Hypervisor, record: NetworkRecord): Promise<void> {
    const n = this.access.names;
    const peers = hv.location.hypervisors.filter((h) => h.name !== hv.config.name && h.underlayAddress).map((h) => h.underlayAddress!);
    await ensureNetworkLinks(hv.host, {
      bridge: n.bridge(record.reference),
      vxlan: hv.config.underlayAddress && peers.length > 0 ? { device: n.vxlan(record.reference), vni: n.vni(record.reference), local: hv.config.underlayAddress, peers } : null,
    });
    if (hv !== this.access.home(record.locationId, 'create_network')) return;
    const cidr = parseCidr(record.cidr)!;
    await ensureDhcp(hv.host, {
      bridge: n.bridge(record.reference),
      namespace: n.networkNamespace(record.reference),
      vethHost: n.dhcpVethHost(record.reference),
      vethInside: n.dhcpVethInside(record.reference),
      gateway: `${gatewayOf(cidr)}/${cidr.prefix}`,
      networkAddress: intToIp(cidr.base),
      netmask: netmaskOf(cidr),
      hostsFile: n.dhcpHosts(hv.config.stateDir, record.reference),
      pidFile: n.dhcpPid(hv.config.stateDir, record.reference),
    });
  }

  /** Takes the NIC off the VM (running and persistent definition) and drops the reservation. */
  private async unplug(a: IpAttachment, record: NetworkRecord): Promise<void> {
    const { access } = this;
    const names = access.names;
    const vmRef = a.vm.reference;
    const netRef = record.reference;
    const vm = await access.findDomain(vmRef);
    if (vm) {
      const nic: NicSpec = { mac: names.privateMac(vmRef, netRef, a.ip), bridge: names.bridge(netRef), tap: names.privateTap(vmRef, netRef, a.ip) };
      const name = names.domain(vmRef);
      const [live, persistent] = await Promise.all([vm.state === 'running' ? vm.hv.virsh.dumpXml(name) : null, vm.hv.virsh.dumpXml(name, true)]);
      const inLive = live ? parseDomainXml(live).nics.some((n) => n.mac === nic.mac) : false;
      const inConfig = persistent ? parseDomainXml(persistent).nics.some((n) => n.mac === nic.mac) : false;
      if (inLive || inConfig) await vm.hv.virsh.detachDevice(name, interfaceXml(nic), { live: inLive, config: inConfig });
    }
    const home = access.home(record.locationId, 'detach_ip');
    await home.host.withLock(home.config.stateDir, `${names.prefix}-networks`, async () => {
      const fresh = await this.readNetwork(netRef);
      if (!fresh || fresh.record.attachments[a.ip]?.vm !== vmRef) return;
      delete fresh.record.attachments[a.ip];
      await this.writeNetwork(home, fresh.record);
    });
    if (vm) await this.drives.refresh(vm.hv, vmRef);
  }

  /** Plugs the NIC into the persistent definition and, when it runs, into the guest. */
  private async plug(hv: Hypervisor, vmRef: string, nic: NicSpec, running: boolean): Promise<void> {
    const name = this.access.names.domain(vmRef);
    const [live, persistent] = await Promise.all([running ? hv.virsh.dumpXml(name) : null, hv.virsh.dumpXml(name, true)]);
    const inLive = live ? parseDomainXml(live).nics.some((n) => n.mac === nic.mac) : false;
    const inConfig = persistent ? parseDomainXml(persistent).nics.some((n) => n.mac === nic.mac) : false;
    const wantLive = running && !inLive;
    if (wantLive || !inConfig) await hv.virsh.attachDevice(name, interfaceXml(nic), { live: wantLive, config: !inConfig });
  }
}

import {
  DatacenterError,
  type Datacenter,
  type DatacenterOperation,
  type DatacenterRef,
  type HypervisorCapacity,
  type IpAttachment,
  type LoadBalancerSpec,
  type NetworkSpec,
  type ProvisionedLoadBalancer,
  type ProvisionedVm,
  type PublicIpPool,
  type SecurityGroupSpec,
  type VmSpec,
} from '../types.js';
import { allAddresses, cidrText, contains, gatewayOf, intToIp, isHostAddress, netmaskOf, parseCidr, type Cidr } from './addresses.js';
import type { HypervisorConfig, LibvirtConfig, LocationConfig } from './config.js';
import { domainXml, interfaceXml, parseDomainXml, type NicSpec, type ParsedDomain } from './domain-xml.js';
import { firewallScript, type FirewallState } from './firewall.js';
import { kernelCommandLine, MAX_CMDLINE, noCloudFiles, parseSshKey, type GuestIdentity } from './guest-config.js';
import { haproxyConfig } from './haproxy.js';
import { Host, HostCommandError } from './host.js';
import { ensureBalancerNamespace, ensureDhcp, ensureNetworkLinks, ensurePublicBridge, reloadDhcp, removeBalancer, removeNetwork, startOrReloadHaproxy } from './host-network.js';
import { Names, validReference } from './names.js';
import { Virsh, type DomainState } from './virsh.js';

export type CreateStep = 'disks' | 'defined';

export interface LibvirtDatacenterOptions {
  /** Test hook: awaited after each step of a create that makes something (a test kills the process there). */
  onCreateStep?: (step: CreateStep, reference: string) => void | Promise<void>;
  /** how often the console is read while waiting for a guest (default 250 ms) */
  pollMs?: number;
}

/** One hypervisor as the adapter drives it. */
export interface Hypervisor {
  config: HypervisorConfig;
  location: LocationConfig;
  virsh: Virsh;
  host: Host;
}

/** A private network as recorded on its home hypervisor (the location's first). */
interface NetworkRecord {
  reference: string;
  locationId: number;
  cidr: string;
  /** ip → the machine holding it and the MAC of its NIC */
  attachments: Record<string, { vm: string; mac: string }>;
}

interface BalancerRecord {
  reference: string;
  locationId: number;
  address: string;
}

/** What a failed operation was doing, for the message customers and staff see. */
const DOING: Record<DatacenterOperation, string> = {
  create: 'create the machine',
  start: 'start the machine',
  stop: 'stop the machine',
  delete: 'delete the machine',
  create_network: 'create the network',
  delete_network: 'delete the network',
  attach_ip: 'attach the address',
  detach_ip: 'detach the address',
  security_group: 'apply the security group',
  load_balancer: 'apply the load balancer',
  capacity: 'read what the hypervisors hold',
};

/** libvirtd down or not reachable (socket missing, ssh refused or unknown host). */
const UNREACHABLE = /failed to connect to the hypervisor|failed to connect socket|connection refused|could not resolve hostname|no route to host|connection timed out|ENOENT/i;

/** A host command's failure as customers and staff may read it: what failed, never how. */
export function hostFailureMessage(operation: DatacenterOperation, err: HostCommandError): string {
  if (err.code === null && /did not finish within/.test(err.stderr)) return `the hypervisor did not answer in time; could not ${DOING[operation]}`;
  if (UNREACHABLE.test(err.stderr)) return `the hypervisor could not be reached; could not ${DOING[operation]}`;
  return `the hypervisor failed to ${DOING[operation]}`;
}

const DEFAULT_READY = '(login: |Cloud-init v\\. \\S+ finished)';

/**
 * The datacenter on libvirt/QEMU hypervisors (DATACENTER=libvirt; configuration in
 * src/integrations/datacenter/libvirt/config.ts, documented in the README).
 *
 * - A VM is a libvirt domain named `<prefix>-<reference>` (its external id), with a copy-on-write
 *   overlay of its OS image as boot disk, an optional data disk, and a NoCloud drive (real images)
 *   or kernel command line (the test image) carrying its name, public address and SSH keys.
 *   createVm and startVm return once the guest is up: its serial console (a file) printed the
 *   image's ready line after this start. A guest that does not come up in time is a DatacenterError.
 * - Private networks are a bridge per network on every hypervisor of the location (VXLAN between
 *   them), with a namespace on the first hypervisor holding the gateway and dnsmasq, which gives
 *   each NIC the address reserved for its MAC.
 * - Security groups are nftables rules in the adapter's own tables; load balancers are HAProxy
 *   processes, one per balancer in its own namespace on the public bridge.
 * Every call is idempotent; failures of libvirt or of a host command become DatacenterErrors.
 */
export class LibvirtDatacenter implements Datacenter {
  readonly kind = 'libvirt';
  readonly names: Names;
  readonly hypervisorList: Hypervisor[];
  private readonly serials = new Map<string, Promise<unknown>>();
  private readonly pollMs: number;

  constructor(
    readonly config: LibvirtConfig,
    private readonly options: LibvirtDatacenterOptions = {},
  ) {
    this.names = new Names(config.prefix);
    this.pollMs = options.pollMs ?? 250;
    this.hypervisorList = [...config.locations.values()].flatMap((location) =>
      location.hypervisors.map((h) => ({ config: h, location, virsh: new Virsh(h.uri), host: new Host(h.uri) })),
    );
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Host and libvirt failures become DatacenterErrors of the operation, with a message safe to
   * show (the command, its output and the host's paths are the logged detail); programming errors
   * stay what they are.
   */
  private async wrap<T>(operation: DatacenterOperation, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HostCommandError) throw new DatacenterError(operation, hostFailureMessage(operation, err), false, err.message);
      throw err;
    }
  }

  /** Calls about one reference run one after another in this process. */
  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.serials.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    this.serials.set(key, next);
    void next.finally(() => {
      if (this.serials.get(key) === next) this.serials.delete(key);
    }).catch(() => undefined);
    return next;
  }

  private hypervisorsOf(locationId: number, operation: DatacenterOperation): Hypervisor[] {
    const list = this.hypervisorList.filter((h) => h.location.id === locationId);
    if (list.length === 0) throw new DatacenterError(operation, `location ${locationId} has no hypervisors configured`);
    return list;
  }

  private checkReference(reference: string, operation: DatacenterOperation): void {
    if (!validReference(reference)) throw new DatacenterError(operation, `reference ${JSON.stringify(reference)} is not a valid name`);
  }

  private referenceOf(externalIdOrReference: string): string {
    return this.names.referenceOf(externalIdOrReference) ?? externalIdOrReference;
  }

  /** The hypervisor holding the domain of this reference (searched in parallel), with its state. */
  private async findDomain(reference: string, among: Hypervisor[] = this.hypervisorList): Promise<{ hv: Hypervisor; state: DomainState } | null> {
    const name = this.names.domain(reference);
    const states = await Promise.all(among.map(async (hv) => ({ hv, state: await hv.virsh.state(name) })));
    const found = states.find((s) => s.state !== null);
    return found ? { hv: found.hv, state: found.state! } : null;
  }

  private async prepareHost(hv: Hypervisor): Promise<void> {
    const loc = hv.location;
    await hv.host.sh('mkdir -p "$1" "$2"', [hv.config.imageDir, hv.config.stateDir]);
    await ensurePublicBridge(hv.host, hv.config.publicBridge, hv.config.hostGateway ? `${gatewayOf(loc.publicNetwork)}/${loc.publicNetwork.prefix}` : null, loc.publicEgress !== 'none');
  }

  private imagePath(hv: Hypervisor, p: string): string {
    return p.startsWith('/') ? p : `${hv.config.imageDir}/${p}`;
  }

  // ---------------------------------------------------------------- capacity and pools

  async hypervisors(locationId: number): Promise<HypervisorCapacity[]> {
    return this.wrap('capacity', () => Promise.all(this.hypervisorsOf(locationId, 'capacity').map((hv) => this.capacityOf(hv))));
  }

  private async capacityOf(hv: Hypervisor): Promise<HypervisorCapacity> {
    const [node, stats] = await Promise.all([hv.virsh.nodeInfo(), hv.virsh.stats()]);
    return {
      name: hv.config.name,
      vcpuTotal: hv.config.vcpus ?? node.cpus,
      vcpuUsed: stats.reduce((n, d) => n + d.vcpus, 0),
      memoryMbTotal: hv.config.memoryMb ?? node.memoryMb,
      memoryMbUsed: stats.reduce((n, d) => n + d.memoryMb, 0),
      machines: stats.length,
    };
  }

  publicIpPool(locationId: number): PublicIpPool {
    const loc = this.config.locations.get(locationId);
    if (!loc) return { cidr: '', addresses: [] };
    const lb = loc.loadBalancerAddresses;
    const addresses = allAddresses(loc.publicNetwork).filter((a) => isHostAddress(loc.publicNetwork, a) && !(lb && contains(lb, a)));
    return { cidr: cidrText(loc.publicNetwork), addresses };
  }

  /** The hypervisor with the most free memory among those with room for the machine. */
  private async place(location: LocationConfig, spec: VmSpec): Promise<Hypervisor> {
    const hvs = this.hypervisorsOf(location.id, 'create');
    const caps = await Promise.all(hvs.map(async (hv) => ({ hv, cap: await this.capacityOf(hv) })));
    const fits = caps.filter(({ cap }) => cap.vcpuUsed + spec.cpu <= cap.vcpuTotal && cap.memoryMbUsed + spec.memoryMb <= cap.memoryMbTotal);
    if (fits.length === 0) throw new DatacenterError('create', `no hypervisor in location ${location.id} has room for ${spec.cpu} vCPU / ${spec.memoryMb} MB`, true);
    fits.sort((a, b) => b.cap.memoryMbTotal - b.cap.memoryMbUsed - (a.cap.memoryMbTotal - a.cap.memoryMbUsed));
    return fits[0]!.hv;
  }

  // ---------------------------------------------------------------- VMs

  async createVm(spec: VmSpec): Promise<ProvisionedVm> {
    this.checkReference(spec.reference, 'create');
    return this.serial(`vm:${spec.reference}`, () => this.wrap('create', () => this.create(spec)));
  }

  private async create(spec: VmSpec): Promise<ProvisionedVm> {
    const ref = spec.reference;
    const name = this.names.domain(ref);
    const location = this.config.locations.get(spec.locationId);
    if (!location) throw new DatacenterError('create', `location ${spec.locationId} has no hypervisors configured`);
    const image = this.config.images[spec.os];
    if (!image) throw new DatacenterError('create', `no image is configured for the OS ${spec.os}`);
    const keys = spec.sshKeys ?? [];
    for (const k of keys) if (!parseSshKey(k)) throw new DatacenterError('create', `not an SSH public key: ${k.slice(0, 40)}`);
    if (spec.publicIp !== null && !this.publicIpPool(location.id).addresses.includes(spec.publicIp)) {
      throw new DatacenterError('create', `address ${spec.publicIp} is not in the pool ${cidrText(location.publicNetwork)}`);
    }

    const found = await this.findDomain(ref, this.hypervisorsOf(location.id, 'create'));
    if (found) {
      await this.ensureUp(found.hv, ref, found.state, 'create');
      return { externalId: name, hypervisor: found.hv.config.name };
    }
    // No domain: whatever an interrupted create left (disks, drive, console) goes before we start again.
    await Promise.all(this.hypervisorsOf(location.id, 'create').map((hv) => this.removeFiles(hv, ref)));

    const hv = await this.place(location, spec);
    await this.prepareHost(hv);
    const imageDir = hv.config.imageDir;
    const rootDisk = this.names.rootDisk(imageDir, ref);
    await hv.host.run(['qemu-img', 'create', '-q', '-f', 'qcow2', '-b', this.imagePath(hv, image.disk), '-F', 'qcow2', rootDisk, `${spec.diskGb}G`]);
    let dataDisk: { path: string; block: boolean } | null = null;
    if (spec.blockStorage) {
      const size = `${spec.blockStorage.sizeGb}G`;
      if (hv.config.volumeGroup) {
        const lv = this.names.dataVolume(hv.config.volumeGroup, ref);
        await hv.host.run(['lvcreate', '-q', '-y', '-L', size, '-n', lv.split('/').pop()!, hv.config.volumeGroup]);
        dataDisk = { path: lv, block: true };
      } else {
        const file = this.names.dataDisk(imageDir, ref);
        await hv.host.run(['qemu-img', 'create', '-q', '-f', 'qcow2', file, size]);
        dataDisk = { path: file, block: false };
      }
    }

    // addresses on private networks it boots with: reservations first, so its DHCP finds them
    const privateNics: NicSpec[] = [];
    for (const p of spec.privateAddresses ?? []) {
      privateNics.push(await this.reserve({ network: p.network, vm: { externalId: null, reference: ref }, ip: p.ip }, location, hv, 'create'));
    }
    const identity = this.identity(location, ref, spec.publicIp, privateNics.map((n) => n.mac), keys);
    let configDrive: string | null = null;
    if (!image.kernel) configDrive = await this.writeConfigDrive(hv, identity);
    await this.options.onCreateStep?.('disks', ref);

    const nics: NicSpec[] = [];
    if (spec.publicIp !== null) nics.push({ mac: this.names.publicMac(ref), bridge: hv.config.publicBridge, tap: this.names.publicTap(ref) });
    nics.push(...privateNics);
    let boot: Parameters<typeof domainXml>[0]['boot'] = { kind: 'disk' };
    if (image.kernel && image.initrd) {
      const cmdline = kernelCommandLine(identity, image.cmdline);
      if (cmdline.length > MAX_CMDLINE) throw new DatacenterError('create', `the SSH keys do not fit on the kernel command line of the ${spec.os} image (${cmdline.length} bytes)`);
      boot = { kind: 'kernel', kernel: this.imagePath(hv, image.kernel), initrd: this.imagePath(hv, image.initrd), cmdline };
    }
    await hv.virsh.define(
      domainXml({
        name,
        uuid: this.names.uuid(ref),
        type: hv.config.domainType,
        vcpus: spec.cpu,
        memoryMb: spec.memoryMb,
        cpuLimit: spec.cpuLimit,
        boot,
        rootDisk,
        dataDisk,
        configDrive,
        nics,
        console: this.names.console(hv.config.stateDir, ref),
        metadata: { reference: ref, locationId: location.id, os: spec.os, publicIp: spec.publicIp, sshKeys: keys },
      }),
    );
    await this.options.onCreateStep?.('defined', ref);
    await this.boot(hv, ref, 'create'); // boot applies the firewall: it may already be in a security group
    return { externalId: name, hypervisor: hv.config.name };
  }

  private identity(location: LocationConfig, reference: string, publicIp: string | null, privateMacs: string[], sshKeys: string[]): GuestIdentity {
    return {
      reference,
      instanceId: this.names.domain(reference),
      publicNic: publicIp ? { mac: this.names.publicMac(reference), address: publicIp, prefix: location.publicNetwork.prefix, gateway: gatewayOf(location.publicNetwork) } : null,
      privateMacs,
      sshKeys,
    };
  }

  /** The NoCloud drive (an ISO labelled cidata) of a VM booting a real image. */
  private async writeConfigDrive(hv: Hypervisor, id: GuestIdentity): Promise<string> {
    const iso = this.names.configDrive(hv.config.imageDir, id.reference);
    const dir = `${hv.config.stateDir}/${this.names.domain(id.reference)}.cidata`;
    await hv.host.sh('rm -rf "$1" && mkdir -p "$1"', [dir]);
    for (const [file, content] of Object.entries(noCloudFiles(id))) await hv.host.writeFile(`${dir}/${file}`, content);
    await hv.host.sh('genisoimage -quiet -output "$1.tmp" -volid cidata -joliet -rock "$2/user-data" "$2/meta-data" "$2/network-config" && mv -f "$1.tmp" "$1"; rc=$?; rm -rf "$2"; exit $rc', [iso, dir]);
    return iso;
  }

  /** A running guest that is up, whatever state the domain was found in. */
  private async ensureUp(hv: Hypervisor, reference: string, state: DomainState, operation: DatacenterOperation): Promise<void> {
    if (state === 'running') {
      const mark = await hv.host.readFile(this.names.bootMark(hv.config.stateDir, reference));
      await this.waitUp(hv, reference, Number(mark ?? 0) || 0, operation);
      return;
    }
    if (state === 'paused') {
      await hv.virsh.run(['resume', this.names.domain(reference)]);
      return;
    }
    await this.boot(hv, reference, operation);
  }

  /** Starts the domain and waits for its ready line after this start. */
  private async boot(hv: Hypervisor, reference: string, operation: DatacenterOperation): Promise<void> {
    const consoleFile = this.names.console(hv.config.stateDir, reference);
    const size = await hv.host.sh('[ -f "$1" ] && stat -c %s "$1" || echo 0', [consoleFile]);
    const offset = Number(size.stdout.trim()) || 0;
    await hv.host.writeFile(this.names.bootMark(hv.config.stateDir, reference), String(offset));
    await this.applyFirewall(hv); // after a host restart the tables are gone
    await this.ensureNetworksOf(hv, reference);
    await hv.virsh.start(this.names.domain(reference));
    await this.waitUp(hv, reference, offset, operation);
  }

  private async readyPattern(hv: Hypervisor, reference: string): Promise<RegExp> {
    const xml = await hv.virsh.dumpXml(this.names.domain(reference), true);
    const os = xml ? parseDomainXml(xml).metadata?.os : undefined;
    return new RegExp((os && this.config.images[os]?.readyPattern) || DEFAULT_READY);
  }

  /** Polls the console after `offset` until the ready line shows, the domain stops, or time runs out. */
  private async waitUp(hv: Hypervisor, reference: string, offset: number, operation: DatacenterOperation): Promise<void> {
    const pattern = await this.readyPattern(hv, reference);
    const file = this.names.console(hv.config.stateDir, reference);
    const deadline = Date.now() + this.config.bootTimeoutSeconds * 1000;
    let polls = 0;
    let text = '';
    for (;;) {
      const r = await hv.host.sh('[ -f "$1" ] && tail -c +"$2" "$1" || true', [file, String(offset + 1)]);
      text = r.stdout;
      if (pattern.test(text)) return;
      if (++polls % 8 === 0 && (await hv.virsh.state(this.names.domain(reference))) !== 'running') {
        throw new DatacenterError(operation, `the guest of ${reference} stopped while booting`, false, `last console line: ${lastLine(text)}`);
      }
      if (Date.now() > deadline) {
        throw new DatacenterError(operation, `the guest of ${reference} was not up within ${this.config.bootTimeoutSeconds} s`, false, `last console line: ${lastLine(text)}`);
      }
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  async startVm(externalId: string): Promise<void> {
    const ref = this.referenceOf(externalId);
    return this.serial(`vm:${ref}`, () =>
      this.wrap('start', async () => {
        const found = await this.findDomain(ref);
        if (!found) throw new DatacenterError('start', `machine ${ref} does not exist`);
        await this.prepareHost(found.hv);
        await this.ensureUp(found.hv, ref, found.state, 'start');
      }),
    );
  }

  /** ACPI shutdown; pulled off after shutdownTimeoutSeconds. A machine that is gone is stopped. */
  async stopVm(externalId: string): Promise<void> {
    const ref = this.referenceOf(externalId);
    return this.serial(`vm:${ref}`, () =>
      this.wrap('stop', async () => {
        const found = await this.findDomain(ref);
        if (!found || found.state === 'shut off') return;
        const name = this.names.domain(ref);
        const deadline = Date.now() + this.config.shutdownTimeoutSeconds * 1000;
        if (found.state === 'running' && this.config.shutdownTimeoutSeconds > 0) {
          await found.hv.virsh.shutdown(name).catch(() => undefined);
          while (Date.now() < deadline) {
            if ((await found.hv.virsh.state(name)) !== 'running') break;
            await new Promise((r) => setTimeout(r, this.pollMs));
          }
        }
        if ((await found.hv.virsh.state(name)) !== 'shut off') await found.hv.virsh.destroy(name);
      }),
    );
  }

  async deleteVm(machine: { externalId: string | null; reference: string }): Promise<void> {
    const ref = machine.externalId ? this.referenceOf(machine.externalId) : machine.reference;
    if (!validReference(ref)) return;
    return this.serial(`vm:${ref}`, () =>
      this.wrap('delete', async () => {
        const found = await this.findDomain(ref);
        if (found) {
          await found.hv.virsh.destroy(this.names.domain(ref));
          await found.hv.virsh.undefine(this.names.domain(ref));
        }
        const where = found ? this.hypervisorsOf(found.hv.location.id, 'delete') : this.hypervisorList;
        await Promise.all(where.map((hv) => this.removeFiles(hv, ref)));
        await this.releaseAddresses(ref, where);
        if (found) await this.applyFirewall(found.hv);
      }),
    );
  }

  /** The VM's disks, drive, console and boot mark on one hypervisor (what is there of them). */
  private async removeFiles(hv: Hypervisor, ref: string): Promise<void> {
    const c = hv.config;
    const files = [this.names.rootDisk(c.imageDir, ref), this.names.dataDisk(c.imageDir, ref), this.names.configDrive(c.imageDir, ref), this.names.console(c.stateDir, ref), this.names.bootMark(c.stateDir, ref)];
    await hv.host.sh('rm -f "$@"', files);
    await hv.host.sh('rm -rf "$1"', [`${c.stateDir}/${this.names.domain(ref)}.cidata`]);
    if (c.volumeGroup) {
      const lv = this.names.dataVolume(c.volumeGroup, ref);
      await hv.host.sh('[ ! -e "$1" ] || lvremove -q -f "$1"', [lv]);
    }
  }

  // ---------------------------------------------------------------- private networks

  private home(locationId: number, operation: DatacenterOperation): Hypervisor {
    return this.hypervisorsOf(locationId, operation)[0]!;
  }

  private async readNetwork(reference: string): Promise<{ hv: Hypervisor; record: NetworkRecord } | null> {
    const homes = [...this.config.locations.values()].map((l) => this.home(l.id, 'create_network'));
    const found = await Promise.all(
      homes.map(async (hv) => {
        const text = await hv.host.readFile(this.names.networkFile(hv.config.stateDir, reference));
        return text ? { hv, record: JSON.parse(text) as NetworkRecord } : null;
      }),
    );
    return found.find((f) => f !== null) ?? null;
  }

  private async writeNetwork(hv: Hypervisor, record: NetworkRecord): Promise<void> {
    const c = hv.config;
    await hv.host.writeFile(this.names.networkFile(c.stateDir, record.reference), JSON.stringify(record, null, 2));
    const hosts = Object.entries(record.attachments)
      .map(([ip, a]) => `${a.mac},${ip}\n`)
      .join('');
    await hv.host.writeFile(this.names.dhcpHosts(c.stateDir, record.reference), hosts);
    await reloadDhcp(hv.host, this.names.dhcpPid(c.stateDir, record.reference));
  }

  /** The network's bridge (and VXLAN) on one hypervisor; on its home also the namespace with dnsmasq. */
  private async ensureNetworkOn(hv: Hypervisor, record: NetworkRecord): Promise<void> {
    const n = this.names;
    const peers = hv.location.hypervisors.filter((h) => h.name !== hv.config.name && h.underlayAddress).map((h) => h.underlayAddress!);
    await ensureNetworkLinks(hv.host, {
      bridge: n.bridge(record.reference),
      vxlan: hv.config.underlayAddress && peers.length > 0 ? { device: n.vxlan(record.reference), vni: n.vni(record.reference), local: hv.config.underlayAddress, peers } : null,
    });
    if (hv !== this.home(record.locationId, 'create_network')) return;
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

  async createNetwork(spec: NetworkSpec): Promise<{ externalId: string }> {
    this.checkReference(spec.reference, 'create_network');
    const cidr = parseCidr(spec.cidr);
    if (!cidr) throw new DatacenterError('create_network', `not a private range: ${spec.cidr}`);
    return this.serial(`net:${spec.reference}`, () =>
      this.wrap('create_network', async () => {
        const hvs = this.hypervisorsOf(spec.locationId, 'create_network');
        const home = hvs[0]!;
        await Promise.all(hvs.map((hv) => this.prepareHost(hv)));
        const record = await home.host.withLock(home.config.stateDir, `${this.names.prefix}-networks`, async () => {
          const existing = await this.readNetwork(spec.reference);
          const rec: NetworkRecord = existing?.record ?? { reference: spec.reference, locationId: spec.locationId, cidr: cidrText(cidr), attachments: {} };
          if (!existing) await this.writeNetwork(home, rec);
          return rec;
        });
        await Promise.all(hvs.map((hv) => this.ensureNetworkOn(hv, record)));
        await reloadDhcp(home.host, this.names.dhcpPid(home.config.stateDir, spec.reference));
        return { externalId: this.names.domain(spec.reference) };
      }),
    );
  }

  async deleteNetwork(network: DatacenterRef): Promise<void> {
    const ref = network.externalId ? this.referenceOf(network.externalId) : network.reference;
    if (!validReference(ref)) return;
    return this.serial(`net:${ref}`, () =>
      this.wrap('delete_network', async () => {
        const found = await this.readNetwork(ref);
        if (!found) return;
        // NICs still on it leave first, so no VM keeps a NIC on a bridge that is gone
        for (const [ip, a] of Object.entries(found.record.attachments)) {
          await this.unplug({ network: { externalId: null, reference: ref }, vm: { externalId: null, reference: a.vm }, ip }, found.record);
        }
        const n = this.names;
        await Promise.all(
          this.hypervisorsOf(found.record.locationId, 'delete_network').map((hv) =>
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

  /** Reserves the address for the VM's NIC on the network (DHCP by MAC) and returns that NIC. */
  private async reserve(a: IpAttachment, location: LocationConfig, vmHost: Hypervisor, operation: DatacenterOperation): Promise<NicSpec> {
    const netRef = a.network.externalId ? this.referenceOf(a.network.externalId) : a.network.reference;
    const vmRef = a.vm.reference;
    const home = this.home(location.id, operation);
    const record = await home.host.withLock(home.config.stateDir, `${this.names.prefix}-networks`, async () => {
      const found = await this.readNetwork(netRef);
      if (!found || found.record.locationId !== location.id) throw new DatacenterError(operation, `network ${netRef} does not exist in location ${location.id}`);
      const rec = found.record;
      const cidr = parseCidr(rec.cidr)!;
      if (!isHostAddress(cidr, a.ip)) throw new DatacenterError(operation, `address ${a.ip} is not a host address of ${rec.cidr}`);
      const holder = rec.attachments[a.ip];
      if (holder && holder.vm !== vmRef) throw new DatacenterError(operation, `address ${a.ip} is attached to another machine`);
      if (!holder) {
        rec.attachments[a.ip] = { vm: vmRef, mac: this.names.privateMac(vmRef, netRef, a.ip) };
        await this.writeNetwork(home, rec);
      }
      return rec;
    });
    await this.ensureNetworkOn(vmHost, record);
    return { mac: this.names.privateMac(vmRef, netRef, a.ip), bridge: this.names.bridge(netRef), tap: this.names.privateTap(vmRef, netRef, a.ip) };
  }

  async attachIp(a: IpAttachment): Promise<void> {
    const vmRef = a.vm.externalId ? this.referenceOf(a.vm.externalId) : a.vm.reference;
    return this.serial(`vm:${vmRef}`, () =>
      this.wrap('attach_ip', async () => {
        const found = await this.findDomain(vmRef);
        if (!found) throw new DatacenterError('attach_ip', `machine ${vmRef} does not exist`);
        const nic = await this.reserve({ ...a, vm: { externalId: null, reference: vmRef } }, found.hv.location, found.hv, 'attach_ip');
        await this.plug(found.hv, vmRef, nic, found.state === 'running');
        await this.refreshConfigDrive(found.hv, vmRef);
      }),
    );
  }

  async detachIp(a: IpAttachment): Promise<void> {
    const vmRef = a.vm.externalId ? this.referenceOf(a.vm.externalId) : a.vm.reference;
    const netRef = a.network.externalId ? this.referenceOf(a.network.externalId) : a.network.reference;
    return this.serial(`vm:${vmRef}`, () =>
      this.wrap('detach_ip', async () => {
        const found = await this.readNetwork(netRef);
        if (!found || found.record.attachments[a.ip]?.vm !== vmRef) return;
        await this.unplug({ ...a, vm: { externalId: null, reference: vmRef } }, found.record);
      }),
    );
  }

  /** Takes the NIC off the VM (running and persistent definition) and drops the reservation. */
  private async unplug(a: IpAttachment, record: NetworkRecord): Promise<void> {
    const vmRef = a.vm.reference;
    const netRef = record.reference;
    const vm = await this.findDomain(vmRef);
    if (vm) {
      const nic: NicSpec = { mac: this.names.privateMac(vmRef, netRef, a.ip), bridge: this.names.bridge(netRef), tap: this.names.privateTap(vmRef, netRef, a.ip) };
      const name = this.names.domain(vmRef);
      const [live, persistent] = await Promise.all([vm.state === 'running' ? vm.hv.virsh.dumpXml(name) : null, vm.hv.virsh.dumpXml(name, true)]);
      const inLive = live ? parseDomainXml(live).nics.some((n) => n.mac === nic.mac) : false;
      const inConfig = persistent ? parseDomainXml(persistent).nics.some((n) => n.mac === nic.mac) : false;
      if (inLive || inConfig) await vm.hv.virsh.detachDevice(name, interfaceXml(nic), { live: inLive, config: inConfig });
    }
    const home = this.home(record.locationId, 'detach_ip');
    await home.host.withLock(home.config.stateDir, `${this.names.prefix}-networks`, async () => {
      const fresh = await this.readNetwork(netRef);
      if (!fresh || fresh.record.attachments[a.ip]?.vm !== vmRef) return;
      delete fresh.record.attachments[a.ip];
      await this.writeNetwork(home, fresh.record);
    });
    if (vm) await this.refreshConfigDrive(vm.hv, vmRef);
  }

  /** Plugs the NIC into the persistent definition and, when it runs, into the guest. */
  private async plug(hv: Hypervisor, vmRef: string, nic: NicSpec, running: boolean): Promise<void> {
    const name = this.names.domain(vmRef);
    const [live, persistent] = await Promise.all([running ? hv.virsh.dumpXml(name) : null, hv.virsh.dumpXml(name, true)]);
    const inLive = live ? parseDomainXml(live).nics.some((n) => n.mac === nic.mac) : false;
    const inConfig = persistent ? parseDomainXml(persistent).nics.some((n) => n.mac === nic.mac) : false;
    const wantLive = running && !inLive;
    if (wantLive || !inConfig) await hv.virsh.attachDevice(name, interfaceXml(nic), { live: wantLive, config: !inConfig });
  }

  /** A VM booting a real image gets a NoCloud drive listing its NICs as they are now (read at its next start). */
  private async refreshConfigDrive(hv: Hypervisor, vmRef: string): Promise<void> {
    const xml = await hv.virsh.dumpXml(this.names.domain(vmRef), true);
    if (!xml) return;
    const d = parseDomainXml(xml);
    if (!d.metadata || this.config.images[d.metadata.os]?.kernel || !d.disks.includes(this.names.configDrive(hv.config.imageDir, vmRef))) return;
    const publicMac = this.names.publicMac(vmRef);
    const privateMacs = d.nics.filter((n) => n.mac !== publicMac).map((n) => n.mac);
    await this.writeConfigDrive(hv, this.identity(hv.location, vmRef, d.metadata.publicIp, privateMacs, d.metadata.sshKeys));
  }

  /** A deleted VM's reservations leave every network that held them. */
  private async releaseAddresses(vmRef: string, where: Hypervisor[]): Promise<void> {
    const homes = [...new Set(where.map((hv) => this.home(hv.location.id, 'delete')))];
    for (const home of homes) {
      await home.host.withLock(home.config.stateDir, `${this.names.prefix}-networks`, async () => {
        const list = await home.host.sh('ls -1 "$1"/"$2"-net-*.json 2>/dev/null || true', [home.config.stateDir, this.names.prefix]);
        for (const file of list.stdout.split('\n').filter(Boolean)) {
          const text = await home.host.readFile(file);
          if (!text) continue;
          const rec = JSON.parse(text) as NetworkRecord;
          const held = Object.entries(rec.attachments).filter(([, a]) => a.vm === vmRef);
          if (held.length === 0) continue;
          for (const [ip] of held) delete rec.attachments[ip];
          await this.writeNetwork(home, rec);
        }
      });
    }
  }

  /** Before a start: the bridges of the networks its NICs are on exist on its host (after a host restart they do not). */
  private async ensureNetworksOf(hv: Hypervisor, vmRef: string): Promise<void> {
    const xml = await hv.virsh.dumpXml(this.names.domain(vmRef), true);
    if (!xml) return;
    const bridges = new Set(parseDomainXml(xml).nics.map((n) => n.bridge).filter((b) => b !== hv.config.publicBridge));
    if (bridges.size === 0) return;
    const home = this.home(hv.location.id, 'start');
    const list = await home.host.sh('ls -1 "$1"/"$2"-net-*.json 2>/dev/null || true', [home.config.stateDir, this.names.prefix]);
    for (const file of list.stdout.split('\n').filter(Boolean)) {
      const text = await home.host.readFile(file);
      if (!text) continue;
      const rec = JSON.parse(text) as NetworkRecord;
      if (bridges.has(this.names.bridge(rec.reference))) {
        await this.ensureNetworkOn(hv, rec);
        if (hv !== home) await this.ensureNetworkOn(home, rec);
      }
    }
  }

  // ---------------------------------------------------------------- security groups

  /** Rebuilds the host's nftables tables from the groups' desired state and the VMs defined on it. */
  private async applyFirewall(hv: Hypervisor): Promise<void> {
    await hv.host.sh('mkdir -p "$1"', [hv.config.stateDir]);
    await hv.host.withLock(hv.config.stateDir, `${this.names.prefix}-firewall`, async () => {
      const state = await this.readFirewall(hv);
      const domains = (await hv.virsh.list()).map((d) => this.names.referenceOf(d)).filter((r): r is string => r !== undefined);
      const members = new Set(Object.values(state.groups).flatMap((g) => g.machines));
      const vms = await Promise.all(
        domains.map(async (reference) => {
          if (!members.has(reference)) return { reference, publicIp: null };
          const xml = await hv.virsh.dumpXml(this.names.domain(reference), true);
          return { reference, publicIp: xml ? (parseDomainXml(xml).metadata?.publicIp ?? null) : null };
        }),
      );
      const loc = hv.location;
      const { script, errors } = firewallScript(this.names, {
        state,
        vms,
        publicBridges: [{ name: hv.config.publicBridge, network: cidrText(loc.publicNetwork), egress: loc.publicEgress }],
      });
      if (errors.length > 0) throw new DatacenterError('security_group', errors.join('; '));
      await hv.host.run(['nft', '-f', '-'], { input: script });
    });
  }

  private async readFirewall(hv: Hypervisor): Promise<FirewallState> {
    const text = await hv.host.readFile(this.names.firewallFile(hv.config.stateDir));
    return text ? (JSON.parse(text) as FirewallState) : { groups: {} };
  }

  private async changeGroups(hv: Hypervisor, change: (state: FirewallState) => void): Promise<void> {
    await hv.host.sh('mkdir -p "$1"', [hv.config.stateDir]);
    await hv.host.withLock(hv.config.stateDir, `${this.names.prefix}-firewall-state`, async () => {
      const state = await this.readFirewall(hv);
      change(state);
      await hv.host.writeFile(this.names.firewallFile(hv.config.stateDir), JSON.stringify(state, null, 2));
    });
    await this.applyFirewall(hv);
  }

  async applySecurityGroup(spec: SecurityGroupSpec): Promise<void> {
    this.checkReference(spec.reference, 'security_group');
    for (const m of spec.machines) this.checkReference(m, 'security_group');
    // refuse a rule nftables cannot take before anything changes
    const probe = firewallScript(this.names, { state: { groups: { [spec.reference]: { rules: spec.rules, machines: ['probe'] } } }, vms: [{ reference: 'probe', publicIp: null }], publicBridges: [] });
    if (probe.errors.length > 0) throw new DatacenterError('security_group', probe.errors.join('; '));
    return this.serial(`sg:${spec.reference}`, () =>
      this.wrap('security_group', async () => {
        await Promise.all(
          this.hypervisorsOf(spec.locationId, 'security_group').map((hv) =>
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
    return this.serial(`sg:${reference}`, () =>
      this.wrap('security_group', async () => {
        await Promise.all(
          this.hypervisorList.map(async (hv) => {
            if (!(reference in (await this.readFirewall(hv)).groups)) return;
            await this.changeGroups(hv, (s) => {
              delete s.groups[reference];
            });
          }),
        );
      }),
    );
  }

  // ---------------------------------------------------------------- load balancers

  async applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer> {
    this.checkReference(spec.reference, 'load_balancer');
    return this.serial(`lb:${spec.reference}`, () =>
      this.wrap('load_balancer', async () => {
        const location = this.config.locations.get(spec.locationId);
        if (!location) throw new DatacenterError('load_balancer', `location ${spec.locationId} has no hypervisors configured`);
        const block = location.loadBalancerAddresses;
        if (!block) throw new DatacenterError('load_balancer', `location ${spec.locationId} has no loadBalancerAddresses configured`);
        const hvs = this.hypervisorsOf(location.id, 'load_balancer');
        const targets = await Promise.all(
          spec.targets.map(async (t) => {
            const found = await this.findDomain(t, hvs);
            const xml = found ? await found.hv.virsh.dumpXml(this.names.domain(t), true) : null;
            const ip = xml ? parseDomainXml(xml).metadata?.publicIp : null;
            if (!found || !ip) throw new DatacenterError('load_balancer', found ? `target ${t} has no public address` : `target ${t} does not exist`);
            return { reference: t, address: ip };
          }),
        );
        const home = hvs[0]!;
        await this.prepareHost(home);
        const c = home.config;
        const n = this.names;
        const record = await home.host.withLock(c.stateDir, `${n.prefix}-balancers`, async () => {
          const file = n.balancerFile(c.stateDir, spec.reference);
          const existing = await home.host.readFile(file);
          if (existing) return JSON.parse(existing) as BalancerRecord;
          const address = await this.freeBalancerAddress(home, location.publicNetwork, block);
          const rec: BalancerRecord = { reference: spec.reference, locationId: location.id, address };
          await home.host.writeFile(file, JSON.stringify(rec, null, 2));
          return rec;
        });
        let cfg: string;
        try {
          cfg = haproxyConfig(spec, record.address, targets);
        } catch (err) {
          throw new DatacenterError('load_balancer', (err as Error).message);
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

  private async freeBalancerAddress(home: Hypervisor, network: Cidr, block: Cidr): Promise<string> {
    const list = await home.host.sh('ls -1 "$1"/"$2"-lb-*.json 2>/dev/null || true', [home.config.stateDir, this.names.prefix]);
    const used = new Set<string>();
    for (const file of list.stdout.split('\n').filter(Boolean)) {
      const text = await home.host.readFile(file);
      if (text) used.add((JSON.parse(text) as BalancerRecord).address);
    }
    const free = allAddresses(block).find((a) => isHostAddress(network, a) && !used.has(a));
    if (!free) throw new DatacenterError('load_balancer', `no free balancer address left in ${cidrText(block)}`, true);
    return free;
  }

  async deleteLoadBalancer(reference: string): Promise<void> {
    if (!validReference(reference)) return;
    return this.serial(`lb:${reference}`, () =>
      this.wrap('load_balancer', async () => {
        const n = this.names;
        await Promise.all(
          this.hypervisorList.map(async (hv) => {
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

  // ---------------------------------------------------------------- for operators and tests

  /** The domain of a reference as libvirt has it (its state and what we keep on it), or null. */
  async describeVm(reference: string): Promise<(ParsedDomain & { state: DomainState; hypervisor: string; console: string }) | null> {
    const found = await this.findDomain(reference);
    if (!found) return null;
    const xml = await found.hv.virsh.dumpXml(this.names.domain(reference), true);
    if (!xml) return null;
    return { ...parseDomainXml(xml), state: found.state, hypervisor: found.hv.config.name, console: this.names.console(found.hv.config.stateDir, reference) };
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.at(-1) ?? '').slice(0, 200) || '(nothing on the console)';
}

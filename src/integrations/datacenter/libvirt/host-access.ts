import { asFailureOf, datacenterError, type DatacenterOperation } from '../datacenter.js';
import { gatewayOf } from './addresses.js';
import type { HypervisorConfig, LibvirtConfig, LocationConfig } from './config.js';
import { parseDomainXml, type VmMetadata } from './domain-xml.js';
import { Host, HostCommandError } from './host.js';
import { ensurePublicBridge } from './host-network.js';
import { Names, validReference } from './names.js';
import { Virsh, type DomainState } from './virsh.js';

/** One hypervisor as the adapter drives it. */
export interface Hypervisor {
  config: HypervisorConfig;
  location: LocationConfig;
  virsh: Virsh;
  host: Host;
}

/** What a failed operation was doing, for the message customers and staff see. */
const DOING: Record<DatacenterOperation, string> = {
  create: 'create the machine',
  start: 'start the machine',
  stop: 'stop the machine',
  delete: 'delete the machine',
  resize: 'resize the machine',
  reboot: 'reboot the machine',
  rebuild: 'rebuild the machine',
  rescue: 'switch the machine to or from its rescue system',
  create_network: 'create the network',
  delete_network: 'delete the network',
  attach_ip: 'attach the address',
  detach_ip: 'detach the address',
  security_group: 'apply the security group',
  load_balancer: 'apply the load balancer',
  capacity: 'read what the hypervisors hold',
  console: 'open the serial console',
  snapshot: 'snapshot the machine',
  restore_snapshot: 'restore the machine from its snapshot',
  delete_snapshot: 'delete the snapshot',
  backup: 'copy the disk for a backup',
  restore: 'write the disk from a backup',
  metrics: 'read the machines\' resource use',
};

/** libvirtd down or not reachable (socket missing, ssh refused or unknown host). */
const UNREACHABLE = /failed to connect to the hypervisor|failed to connect socket|connection refused|could not resolve hostname|no route to host|connection timed out|ENOENT/i;

/** A host command's failure as customers and staff may read it: what failed, never how. */
export function hostFailureMessage(operation: DatacenterOperation, err: HostCommandError): string {
  if (err.code === null && /did not finish within/.test(err.stderr)) return `the hypervisor did not answer in time; could not ${DOING[operation]}`;
  if (UNREACHABLE.test(err.stderr)) return `the hypervisor could not be reached; could not ${DOING[operation]}`;
  return `the hypervisor failed to ${DOING[operation]}`;
}

/**
 * What every libvirt capability shares: the configured hypervisors (virsh and a shell on each), the
 * names derived from our references, one-at-a-time calls per reference in this process, and the
 * turning of host failures into the capability's error.
 */
export class HostAccess {
  readonly names: Names;
  readonly hypervisorList: Hypervisor[];
  private readonly serials = new Map<string, Promise<unknown>>();

  constructor(readonly config: LibvirtConfig) {
    this.names = new Names(config.prefix);
    this.hypervisorList = [...config.locations.values()].flatMap((location) =>
      location.hypervisors.map((h) => ({ config: h, location, virsh: new Virsh(h.uri), host: new Host(h.uri) })),
    );
  }

  /**
   * Host and libvirt failures become the error of the operation's capability, with a message safe
   * to show (the command, its output and the host's paths are the logged detail); a failure of
   * another capability on the way becomes this one's; programming errors stay what they are.
   */
  async wrap<T>(operation: DatacenterOperation, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HostCommandError) throw datacenterError(operation, hostFailureMessage(operation, err), false, err.message);
      throw asFailureOf(operation, err);
    }
  }

  /** Calls about one key (`vm:<ref>`, `net:<ref>`, …) run one after another in this process. */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.serials.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    this.serials.set(key, next);
    void next.finally(() => {
      if (this.serials.get(key) === next) this.serials.delete(key);
    }).catch(() => undefined);
    return next;
  }

  hypervisorsOf(locationId: number, operation: DatacenterOperation): Hypervisor[] {
    const list = this.hypervisorList.filter((h) => h.location.id === locationId);
    if (list.length === 0) throw datacenterError(operation, `location ${locationId} has no hypervisors configured`);
    return list;
  }

  /** The location's first hypervisor: it keeps the location's network records and runs its gateways and balancers. */
  home(locationId: number, operation: DatacenterOperation): Hypervisor {
    return this.hypervisorsOf(locationId, operation)[0]!;
  }

  checkReference(reference: string, operation: DatacenterOperation): void {
    if (!validReference(reference)) throw datacenterError(operation, `reference ${JSON.stringify(reference)} is not a valid name`);
  }

  referenceOf(externalIdOrReference: string): string {
    return this.names.referenceOf(externalIdOrReference) ?? externalIdOrReference;
  }

  /** Our reference of a thing named by its id or, when the create's answer was lost, by our reference. */
  refOf(thing: { externalId: string | null; reference: string }): string {
    return thing.externalId ? this.referenceOf(thing.externalId) : thing.reference;
  }

  /** The hypervisor holding the domain of this reference (searched in parallel), with its state. */
  async findDomain(reference: string, among: Hypervisor[] = this.hypervisorList): Promise<{ hv: Hypervisor; state: DomainState } | null> {
    const name = this.names.domain(reference);
    const states = await Promise.all(among.map(async (hv) => ({ hv, state: await hv.virsh.state(name) })));
    const found = states.find((s) => s.state !== null);
    return found ? { hv: found.hv, state: found.state! } : null;
  }

  /** What we keep on the domain of this reference on `hv` (its persistent definition), or null. */
  async metadataOf(hv: Hypervisor, reference: string): Promise<VmMetadata | null> {
    const xml = await hv.virsh.dumpXml(this.names.domain(reference), true);
    return xml ? (parseDomainXml(xml).metadata ?? null) : null;
  }

  /** The host's directories and the location's public bridge. */
  async prepareHost(hv: Hypervisor): Promise<void> {
    const loc = hv.location;
    await hv.host.sh('mkdir -p "$1" "$2"', [hv.config.imageDir, hv.config.stateDir]);
    await ensurePublicBridge(hv.host, hv.config.publicBridge, hv.config.hostGateway ? `${gatewayOf(loc.publicNetwork)}/${loc.publicNetwork.prefix}` : null, loc.publicEgress !== 'none');
  }

  imagePath(hv: Hypervisor, p: string): string {
    return p.startsWith('/') ? p : `${hv.config.imageDir}/${p}`;
  }
}

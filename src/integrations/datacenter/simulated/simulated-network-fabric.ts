import { NetworkFabricError, type IpAttachment, type NetworkFabric, type NetworkSpec } from '../network-fabric.js';
import type { DatacenterRef } from '../shared.js';
import type { SimulatedHosts } from './simulated-hosts.js';

interface PrivateNetwork {
  externalId: string;
  reference: string;
  locationId: number;
  cidr: string;
  /** ip → the machine's key (its external id, or our reference for a machine we adopted) */
  attachments: Map<string, string>;
}

/** Private networks of the simulated datacenter: which machine holds which address. */
export class SimulatedNetworkFabric implements NetworkFabric {
  private readonly networks = new Map<string, PrivateNetwork>();
  private readonly networkByReference = new Map<string, string>();

  constructor(private readonly hosts: SimulatedHosts) {}

  async createNetwork(spec: NetworkSpec): Promise<{ externalId: string }> {
    await this.hosts.call('create_network');
    const existing = this.networkByReference.get(spec.reference);
    if (existing) return { externalId: existing };
    hostRange(spec.cidr); // refuses a malformed range
    const externalId = `simnet-${spec.locationId}-${this.hosts.nextSeq()}-${spec.reference}`;
    this.networks.set(externalId, { externalId, reference: spec.reference, locationId: spec.locationId, cidr: spec.cidr, attachments: new Map() });
    this.networkByReference.set(spec.reference, externalId);
    return { externalId };
  }

  async deleteNetwork(network: DatacenterRef): Promise<void> {
    await this.hosts.call('delete_network');
    const n = this.findNetwork(network);
    if (n) {
      this.networks.delete(n.externalId);
      this.networkByReference.delete(n.reference);
    }
  }

  async attachIp(a: IpAttachment): Promise<void> {
    await this.hosts.call('attach_ip');
    const n = this.findNetwork(a.network);
    if (!n) throw new NetworkFabricError('attach_ip', `network ${a.network.externalId ?? a.network.reference} does not exist`);
    const [first, last] = hostRange(n.cidr);
    const ip = toInt(a.ip);
    if (ip === undefined || ip < first || ip > last) throw new NetworkFabricError('attach_ip', `address ${a.ip} is not a host address of ${n.cidr}`);
    const key = this.hosts.machineKey(a.vm);
    const holder = n.attachments.get(a.ip);
    if (holder !== undefined && holder !== key) throw new NetworkFabricError('attach_ip', `address ${a.ip} is attached to another machine`);
    n.attachments.set(a.ip, key);
  }

  async detachIp(a: IpAttachment): Promise<void> {
    await this.hosts.call('detach_ip');
    const n = this.findNetwork(a.network);
    if (n && n.attachments.get(a.ip) === this.hosts.machineKey(a.vm)) n.attachments.delete(a.ip);
  }

  /** A deleted machine (by any of its keys) leaves every network. */
  releaseMachine(keys: string[]): void {
    for (const n of this.networks.values()) {
      for (const [ip, key] of n.attachments) if (keys.includes(key)) n.attachments.delete(ip);
    }
  }

  private findNetwork(ref: DatacenterRef): PrivateNetwork | undefined {
    const id = ref.externalId ?? this.networkByReference.get(ref.reference);
    return id ? this.networks.get(id) : undefined;
  }

  /** For tests: the private network of this reference and which machine holds each address. */
  networkStateOf(reference: string): { cidr: string; attachments: Record<string, string> } | undefined {
    const id = this.networkByReference.get(reference);
    const n = id ? this.networks.get(id) : undefined;
    if (!n) return undefined;
    const attachments: Record<string, string> = {};
    for (const [ip, key] of n.attachments) attachments[ip] = this.hosts.machines.get(key)?.reference ?? key;
    return { cidr: n.cidr, attachments };
  }
}

function toInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const o = m.slice(1, 5).map(Number);
  if (o.some((x) => x > 255)) return undefined;
  return ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
}

/** First and last host address (network, gateway .1 and broadcast excluded) of a private range. */
function hostRange(cidr: string): [number, number] {
  const [ip, bits] = cidr.split('/');
  const base = ip === undefined ? undefined : toInt(ip);
  const prefix = Number(bits);
  if (base === undefined || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) throw new NetworkFabricError('create_network', `not a private range: ${cidr}`);
  const size = 2 ** (32 - prefix);
  if (base % size !== 0) throw new NetworkFabricError('create_network', `${cidr} is not aligned on its prefix`);
  return [base + 2, base + size - 2];
}

import { usableAddresses } from './ip-pool.js';
import {
  DatacenterError,
  type Datacenter,
  type DatacenterOperation,
  type DatacenterRef,
  type HypervisorCapacity,
  type IpAttachment,
  type NetworkSpec,
  type LoadBalancerSpec,
  type ProvisionedLoadBalancer,
  type SecurityGroupSpec,
  type ProvisionedVm,
  type PublicIpPool,
  type VmSpec,
} from './types.js';

export interface SimulatedDatacenterOptions {
  /** How long each call takes (provisioning is not instant in a real datacenter). */
  delayMs?: number;
  /** Hypervisors per location and their size. */
  hypervisorsPerLocation?: number;
  vcpuPerHypervisor?: number;
  memoryMbPerHypervisor?: number;
  /** The public pool of location n is 198.18.n.0/24 unless given here. */
  ipPools?: Record<number, string>;
}

interface Machine {
  externalId: string;
  reference: string;
  locationId: number;
  hypervisor: string;
  cpu: number;
  memoryMb: number;
  publicIp: string | null;
  running: boolean;
}

interface PrivateNetwork {
  externalId: string;
  reference: string;
  locationId: number;
  cidr: string;
  /** ip → the machine's key (its external id, or our reference for a machine we adopted) */
  attachments: Map<string, string>;
}

interface Hypervisor {
  name: string;
  locationId: number;
  vcpuTotal: number;
  memoryMbTotal: number;
}

/**
 * The built-in datacenter: machines live in this process's memory, every call takes `delayMs`,
 * hypervisors have a finite number of vCPUs and memory per location, and tests (or an operator
 * trying the failure paths) can make the next calls fail. It forgets its machines on restart; a
 * start, stop or delete of a machine it does not know then succeeds (it adopts the machine), as a
 * real datacenter still holding it would.
 */
export class SimulatedDatacenter implements Datacenter {
  readonly kind = 'simulated';
  private readonly machines = new Map<string, Machine>();
  private readonly byReference = new Map<string, string>();
  private readonly networks = new Map<string, PrivateNetwork>();
  private readonly networkByReference = new Map<string, string>();
  private readonly hypervisorList = new Map<number, Hypervisor[]>();
  private readonly failures: { operation: DatacenterOperation | 'any'; remaining: number; message: string }[] = [];
  private seq = 0;
  /** Security groups as last applied, by reference, with how many times each was applied. */
  private readonly groups = new Map<string, { spec: SecurityGroupSpec; applied: number }>();
  private readonly balancers = new Map<string, { spec: LoadBalancerSpec; applied: number; externalId: string; address: string }>();
  private lbSeq = 0;
  delayMs: number;

  constructor(private readonly options: SimulatedDatacenterOptions = {}) {
    this.delayMs = options.delayMs ?? 0;
  }

  /** The next `times` calls of `operation` fail with `message` (failure injection). */
  failNext(operation: DatacenterOperation | 'any', times = 1, message = 'simulated datacenter failure'): void {
    this.failures.push({ operation, remaining: times, message });
  }

  /** Forgets pending injected failures. */
  clearFailures(): void {
    this.failures.length = 0;
  }

  /** Replaces the hypervisors of a location (capacity tests, operators). */
  setHypervisors(locationId: number, hypervisors: { name: string; vcpuTotal: number; memoryMbTotal: number }[]): void {
    this.hypervisorList.set(
      locationId,
      hypervisors.map((h) => ({ ...h, locationId })),
    );
  }

  private hypervisorsOf(locationId: number): Hypervisor[] {
    let list = this.hypervisorList.get(locationId);
    if (!list) {
      const n = this.options.hypervisorsPerLocation ?? 4;
      list = Array.from({ length: n }, (_, i) => ({
        name: `hv-${locationId}-${i + 1}`,
        locationId,
        vcpuTotal: this.options.vcpuPerHypervisor ?? 64,
        memoryMbTotal: this.options.memoryMbPerHypervisor ?? 262_144,
      }));
      this.hypervisorList.set(locationId, list);
    }
    return list;
  }

  private usage(hv: string): { vcpu: number; memoryMb: number; machines: number } {
    let vcpu = 0;
    let memoryMb = 0;
    let machines = 0;
    for (const m of this.machines.values()) {
      if (m.hypervisor === hv) {
        vcpu += m.cpu;
        memoryMb += m.memoryMb;
        machines += 1;
      }
    }
    return { vcpu, memoryMb, machines };
  }

  private async call(operation: DatacenterOperation): Promise<void> {
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const i = this.failures.findIndex((f) => f.operation === operation || f.operation === 'any');
    if (i >= 0) {
      const f = this.failures[i]!;
      f.remaining--;
      if (f.remaining <= 0) this.failures.splice(i, 1);
      throw new DatacenterError(operation, f.message);
    }
  }

  async createVm(spec: VmSpec): Promise<ProvisionedVm> {
    await this.call('create');
    const existing = this.byReference.get(spec.reference);
    if (existing) {
      const m = this.machines.get(existing)!;
      return { externalId: m.externalId, hypervisor: m.hypervisor };
    }
    const pool = this.publicIpPool(spec.locationId);
    if (spec.publicIp !== null) {
      if (!pool.addresses.includes(spec.publicIp)) throw new DatacenterError('create', `address ${spec.publicIp} is not in the pool ${pool.cidr}`);
      for (const m of this.machines.values()) {
        if (m.publicIp === spec.publicIp) throw new DatacenterError('create', `address ${spec.publicIp} is attached to another machine`);
      }
    }
    // first fit
    const hv = this.hypervisorsOf(spec.locationId).find((h) => {
      const u = this.usage(h.name);
      return u.vcpu + spec.cpu <= h.vcpuTotal && u.memoryMb + spec.memoryMb <= h.memoryMbTotal;
    });
    if (!hv) throw new DatacenterError('create', `no hypervisor in location ${spec.locationId} has room for ${spec.cpu} vCPU / ${spec.memoryMb} MB`, true);
    const externalId = `sim-${spec.locationId}-${++this.seq}-${spec.reference}`;
    this.machines.set(externalId, {
      externalId,
      reference: spec.reference,
      locationId: spec.locationId,
      hypervisor: hv.name,
      cpu: spec.cpu,
      memoryMb: spec.memoryMb,
      publicIp: spec.publicIp,
      running: true,
    });
    this.byReference.set(spec.reference, externalId);
    return { externalId, hypervisor: hv.name };
  }

  async startVm(externalId: string): Promise<void> {
    await this.call('start');
    const m = this.machines.get(externalId);
    if (m) m.running = true;
  }

  async stopVm(externalId: string): Promise<void> {
    await this.call('stop');
    const m = this.machines.get(externalId);
    if (m) m.running = false;
  }

  async deleteVm(machine: { externalId: string | null; reference: string }): Promise<void> {
    await this.call('delete');
    const id = machine.externalId ?? this.byReference.get(machine.reference);
    const m = id ? this.machines.get(id) : undefined;
    if (m) {
      this.machines.delete(m.externalId);
      this.byReference.delete(m.reference);
    }
    // a deleted machine leaves its private networks
    for (const n of this.networks.values()) {
      for (const [ip, key] of n.attachments) if (key === m?.externalId || key === machine.reference) n.attachments.delete(ip);
    }
  }

  async createNetwork(spec: NetworkSpec): Promise<{ externalId: string }> {
    await this.call('create_network');
    const existing = this.networkByReference.get(spec.reference);
    if (existing) return { externalId: existing };
    hostRange(spec.cidr); // refuses a malformed range
    const externalId = `simnet-${spec.locationId}-${++this.seq}-${spec.reference}`;
    this.networks.set(externalId, { externalId, reference: spec.reference, locationId: spec.locationId, cidr: spec.cidr, attachments: new Map() });
    this.networkByReference.set(spec.reference, externalId);
    return { externalId };
  }

  async deleteNetwork(network: DatacenterRef): Promise<void> {
    await this.call('delete_network');
    const n = this.findNetwork(network);
    if (n) {
      this.networks.delete(n.externalId);
      this.networkByReference.delete(n.reference);
    }
  }

  async attachIp(a: IpAttachment): Promise<void> {
    await this.call('attach_ip');
    const n = this.findNetwork(a.network);
    if (!n) throw new DatacenterError('attach_ip', `network ${a.network.externalId ?? a.network.reference} does not exist`);
    const [first, last] = hostRange(n.cidr);
    const ip = toInt(a.ip);
    if (ip === undefined || ip < first || ip > last) throw new DatacenterError('attach_ip', `address ${a.ip} is not a host address of ${n.cidr}`);
    const key = this.machineKey(a.vm);
    const holder = n.attachments.get(a.ip);
    if (holder !== undefined && holder !== key) throw new DatacenterError('attach_ip', `address ${a.ip} is attached to another machine`);
    n.attachments.set(a.ip, key);
  }

  async detachIp(a: IpAttachment): Promise<void> {
    await this.call('detach_ip');
    const n = this.findNetwork(a.network);
    if (n && n.attachments.get(a.ip) === this.machineKey(a.vm)) n.attachments.delete(a.ip);
  }

  private findNetwork(ref: DatacenterRef): PrivateNetwork | undefined {
    const id = ref.externalId ?? this.networkByReference.get(ref.reference);
    return id ? this.networks.get(id) : undefined;
  }

  /** A machine we know by its external id; one we do not know (adopted after a restart) by our reference. */
  private machineKey(vm: DatacenterRef): string {
    return vm.externalId ?? this.byReference.get(vm.reference) ?? vm.reference;
  }

  /** For tests: the private network of this reference and which machine holds each address. */
  networkStateOf(reference: string): { cidr: string; attachments: Record<string, string> } | undefined {
    const id = this.networkByReference.get(reference);
    const n = id ? this.networks.get(id) : undefined;
    if (!n) return undefined;
    const attachments: Record<string, string> = {};
    for (const [ip, key] of n.attachments) attachments[ip] = this.machines.get(key)?.reference ?? key;
    return { cidr: n.cidr, attachments };
  }

  async hypervisors(locationId: number): Promise<HypervisorCapacity[]> {
    return this.hypervisorsOf(locationId).map((h) => {
      const u = this.usage(h.name);
      return { name: h.name, vcpuTotal: h.vcpuTotal, vcpuUsed: u.vcpu, memoryMbTotal: h.memoryMbTotal, memoryMbUsed: u.memoryMb, machines: u.machines };
    });
  }

  publicIpPool(locationId: number): PublicIpPool {
    const cidr = this.options.ipPools?.[locationId] ?? `198.18.${locationId % 256}.0/24`;
    return { cidr, addresses: usableAddresses(cidr) };
  }

  /** For tests: is the machine of this reference running? undefined when it does not exist. */
  stateOf(reference: string): { running: boolean; publicIp: string | null; hypervisor: string } | undefined {
    const id = this.byReference.get(reference);
    const m = id ? this.machines.get(id) : undefined;
    return m ? { running: m.running, publicIp: m.publicIp, hypervisor: m.hypervisor } : undefined;
  }

  async applySecurityGroup(spec: SecurityGroupSpec): Promise<void> {
    await this.call('security_group');
    const prev = this.groups.get(spec.reference);
    this.groups.set(spec.reference, { spec: structuredClone(spec), applied: (prev?.applied ?? 0) + 1 });
  }

  async deleteSecurityGroup(reference: string): Promise<void> {
    await this.call('security_group');
    this.groups.delete(reference);
  }

  async applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer> {
    await this.call('load_balancer');
    const prev = this.balancers.get(spec.reference);
    const externalId = prev?.externalId ?? `sim-lb-${++this.lbSeq}`;
    const address = prev?.address ?? `203.0.113.${(this.lbSeq % 254) + 1}`;
    this.balancers.set(spec.reference, { spec: structuredClone(spec), applied: (prev?.applied ?? 0) + 1, externalId, address });
    return { externalId, address };
  }

  async deleteLoadBalancer(reference: string): Promise<void> {
    await this.call('load_balancer');
    this.balancers.delete(reference);
  }

  /** For tests: the security group as last applied (undefined when absent) and how often it was applied. */
  securityGroupOf(reference: string): { spec: SecurityGroupSpec; applied: number } | undefined {
    return this.groups.get(reference);
  }

  /** For tests: the balancer as last applied. */
  loadBalancerOf(reference: string): { spec: LoadBalancerSpec; applied: number; address: string } | undefined {
    return this.balancers.get(reference);
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
  if (base === undefined || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) throw new DatacenterError('create_network', `not a private range: ${cidr}`);
  const size = 2 ** (32 - prefix);
  if (base % size !== 0) throw new DatacenterError('create_network', `${cidr} is not aligned on its prefix`);
  return [base + 2, base + size - 2];
}

import { datacenterError, type DatacenterOperation } from '../datacenter.js';
import type { DatacenterRef } from '../shared.js';

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

export interface SimulatedMachine {
  externalId: string;
  reference: string;
  locationId: number;
  hypervisor: string;
  cpu: number;
  memoryMb: number;
  /** the boot disk's size (a resize grows it) */
  diskGb?: number;
  publicIp: string | null;
  running: boolean;
  /** what the guest was given, as a real one reads it from its config drive */
  sshKeys: string[];
  userData: string | null;
  /** what boots: its OS, how often it booted, which rebuild made its disk, the rescue system instead */
  os?: string;
  boots?: number;
  rebuild?: number;
  rescue?: boolean;
  /** its volume's size (GB), when it has one */
  volumeGb?: number;
  /** the snapshot its volume was written from at its create (tests) */
  volumeFrom?: string;
  /** its guest answers a guest agent (snapshots freeze its file systems) */
  agent?: boolean;
}

export interface SimulatedHypervisor {
  name: string;
  locationId: number;
  vcpuTotal: number;
  memoryMbTotal: number;
}

/**
 * What the simulated capabilities share: the delay and injected failures of every call, the
 * hypervisors of each location, and the machines on them (the networks, firewalls and balancers
 * find machines here).
 */
export class SimulatedHosts {
  delayMs: number;
  readonly machines = new Map<string, SimulatedMachine>();
  readonly byReference = new Map<string, string>();
  /** the snapshots the datacenter holds, by reference (SimulatedSnapshots keeps them; a create from one reads them) */
  readonly snapshots = new Map<string, { reference: string; hypervisor: string; disks: { disk: string; diskGb: number }[]; state: Pick<SimulatedMachine, 'os' | 'rebuild'> }>();
  private readonly hypervisorList = new Map<number, SimulatedHypervisor[]>();
  private readonly failures: { operation: DatacenterOperation | 'any'; remaining: number; message: string }[] = [];
  private seq = 0;
  private readonly machineListeners = new Set<() => void>();

  constructor(readonly options: SimulatedDatacenterOptions = {}) {
    this.delayMs = options.delayMs ?? 0;
  }

  /** Calls `fn` whenever a machine stops or is deleted; returns what unsubscribes it. */
  onMachineChange(fn: () => void): () => void {
    this.machineListeners.add(fn);
    return () => this.machineListeners.delete(fn);
  }

  machineChanged(): void {
    for (const fn of [...this.machineListeners]) fn();
  }

  /** A number for a new external id, unique in this datacenter. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** The next `times` calls of `operation` fail with `message` (failure injection). */
  failNext(operation: DatacenterOperation | 'any', times = 1, message = 'simulated datacenter failure'): void {
    this.failures.push({ operation, remaining: times, message });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /** Every call starts here: it takes `delayMs`, then fails when a failure of it was injected. */
  async call(operation: DatacenterOperation): Promise<void> {
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const i = this.failures.findIndex((f) => f.operation === operation || f.operation === 'any');
    if (i >= 0) {
      const f = this.failures[i]!;
      f.remaining--;
      if (f.remaining <= 0) this.failures.splice(i, 1);
      throw datacenterError(operation, f.message);
    }
  }

  setHypervisors(locationId: number, hypervisors: { name: string; vcpuTotal: number; memoryMbTotal: number }[]): void {
    this.hypervisorList.set(
      locationId,
      hypervisors.map((h) => ({ ...h, locationId })),
    );
  }

  hypervisorsOf(locationId: number): SimulatedHypervisor[] {
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

  usage(hv: string): { vcpu: number; memoryMb: number; machines: number } {
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

  /** A machine we know by its external id; one we do not know (adopted after a restart) by our reference. */
  machineKey(vm: DatacenterRef): string {
    return vm.externalId ?? this.byReference.get(vm.reference) ?? vm.reference;
  }
}

import { usableAddresses } from '../ip-pool.js';
import type { DatacenterRef } from '../shared.js';
import { VmHostError, type HypervisorCapacity, type MachineSpec, type ProvisionedVm, type PublicIpPool, type VmHosts, type VmOperation, type VmSize, type VmSpec } from '../vm-hosts.js';
import type { SimulatedHosts, SimulatedMachine } from './simulated-hosts.js';

/** VMs of the simulated datacenter: first fit on the location's hypervisors. */
export class SimulatedVmHosts implements VmHosts {
  constructor(
    private readonly hosts: SimulatedHosts,
    /** a deleted machine leaves its private networks */
    private readonly networks: { releaseMachine(keys: string[]): void },
  ) {}

  async createVm(spec: VmSpec): Promise<ProvisionedVm> {
    await this.hosts.call('create');
    const { machines, byReference } = this.hosts;
    const existing = byReference.get(spec.reference);
    if (existing) {
      const m = machines.get(existing)!;
      return { externalId: m.externalId, hypervisor: m.hypervisor };
    }
    const pool = this.publicIpPool(spec.locationId);
    if (spec.publicIp !== null) {
      if (!pool.addresses.includes(spec.publicIp)) throw new VmHostError('create', `address ${spec.publicIp} is not in the pool ${pool.cidr}`);
      for (const m of machines.values()) {
        if (m.publicIp === spec.publicIp) throw new VmHostError('create', `address ${spec.publicIp} is attached to another machine`);
      }
    }
    const source = spec.fromSnapshot ? this.hosts.snapshots.get(spec.fromSnapshot.reference) : undefined;
    if (spec.fromSnapshot && !source) throw new VmHostError('create', 'the snapshot to create the machine from does not exist at the datacenter');
    // first fit; a machine from a snapshot goes where the snapshot is kept
    const candidates = this.hosts.hypervisorsOf(spec.locationId).filter((h) => !source || h.name === source.hypervisor);
    const hv = candidates.find((h) => {
      const u = this.hosts.usage(h.name);
      return u.vcpu + spec.cpu <= h.vcpuTotal && u.memoryMb + spec.memoryMb <= h.memoryMbTotal;
    });
    if (!hv) throw new VmHostError('create', source ? `the hypervisor that keeps the snapshot has no room for ${spec.cpu} vCPU / ${spec.memoryMb} MB` : `no hypervisor in location ${spec.locationId} has room for ${spec.cpu} vCPU / ${spec.memoryMb} MB`, true);
    const heldVolume = source?.disks.find((d) => d.disk === 'volume');
    if (heldVolume && spec.blockStorage && spec.blockStorage.sizeGb < heldVolume.diskGb) throw new VmHostError('create', `the volume (${spec.blockStorage.sizeGb} GB) is smaller than the snapshot's (${heldVolume.diskGb} GB)`);
    const externalId = `sim-${spec.locationId}-${this.hosts.nextSeq()}-${spec.reference}`;
    machines.set(externalId, {
      externalId,
      reference: spec.reference,
      locationId: spec.locationId,
      hypervisor: hv.name,
      cpu: spec.cpu,
      memoryMb: spec.memoryMb,
      diskGb: spec.diskGb,
      ...(spec.blockStorage ? { volumeGb: spec.blockStorage.sizeGb, ...(heldVolume ? { volumeFrom: source!.reference } : {}) } : {}),
      publicIp: spec.publicIp,
      running: true,
      sshKeys: [...(spec.sshKeys ?? [])],
      userData: spec.userData ?? null,
      os: source?.state.os ?? spec.os,
      boots: 1,
      rebuild: 0,
      rescue: false,
    });
    byReference.set(spec.reference, externalId);
    return { externalId, hypervisor: hv.name };
  }

  async startVm(externalId: string): Promise<void> {
    await this.hosts.call('start');
    const m = this.hosts.machines.get(externalId);
    if (m && !m.running) this.boot(m);
  }

  private boot(m: SimulatedMachine): void {
    m.running = true;
    m.boots = (m.boots ?? 0) + 1;
  }

  private machine(externalId: string, operation: VmOperation): SimulatedMachine {
    const m = this.hosts.machines.get(externalId);
    if (!m) throw new VmHostError(operation, `machine ${externalId} does not exist`);
    return m;
  }

  async rebootVm(externalId: string, _hard: boolean): Promise<void> {
    await this.hosts.call('reboot');
    this.boot(this.machine(externalId, 'reboot'));
  }

  async rebuildVm(spec: MachineSpec): Promise<void> {
    await this.hosts.call('rebuild');
    const m = this.machine(spec.externalId, 'rebuild');
    if ((m.rebuild ?? 0) === spec.rebuild && !m.rescue) {
      if (!m.running) this.boot(m);
      return;
    }
    Object.assign(m, { os: spec.os, rebuild: spec.rebuild, rescue: false });
    this.boot(m);
  }

  async rescueVm(spec: MachineSpec): Promise<void> {
    await this.hosts.call('rescue');
    const m = this.machine(spec.externalId, 'rescue');
    if (m.rescue && m.running) return;
    m.rescue = true;
    this.boot(m);
  }

  async unrescueVm(spec: MachineSpec, start: boolean): Promise<void> {
    await this.hosts.call('rescue');
    const m = this.machine(spec.externalId, 'rescue');
    if (m.rescue) {
      m.rescue = false;
      m.running = false;
    }
    if (start && !m.running) this.boot(m);
  }

  async stopVm(externalId: string): Promise<void> {
    await this.hosts.call('stop');
    const m = this.hosts.machines.get(externalId);
    if (m) m.running = false;
    this.hosts.machineChanged();
  }

  /** Grows or shrinks the machine on its hypervisor when there is room; `restarts` counts the running machines it had to stop and start. */
  async resizeVm(externalId: string, size: VmSize, running: boolean): Promise<void> {
    await this.hosts.call('resize');
    const m = this.hosts.machines.get(externalId);
    if (!m) throw new VmHostError('resize', `machine ${externalId} does not exist`);
    const hv = this.hosts.hypervisorsOf(m.locationId).find((h) => h.name === m.hypervisor)!;
    const u = this.hosts.usage(hv.name);
    if (u.vcpu - m.cpu + size.cpu > hv.vcpuTotal || u.memoryMb - m.memoryMb + size.memoryMb > hv.memoryMbTotal) {
      throw new VmHostError('resize', `hypervisor ${hv.name} has no room for ${size.cpu} vCPU / ${size.memoryMb} MB`, true);
    }
    const changes = m.cpu !== size.cpu || m.memoryMb !== size.memoryMb || (m.diskGb ?? 0) < size.diskGb;
    if (changes && m.running) this.restarts.set(m.reference, (this.restarts.get(m.reference) ?? 0) + 1);
    m.cpu = size.cpu;
    m.memoryMb = size.memoryMb;
    m.diskGb = Math.max(m.diskGb ?? 0, size.diskGb);
    m.running = running;
  }

  /** For tests: how many times a resize stopped and started the running machine of this reference. */
  readonly restarts = new Map<string, number>();

  async deleteVm(machine: DatacenterRef): Promise<void> {
    await this.hosts.call('delete');
    const { machines, byReference } = this.hosts;
    const id = machine.externalId ?? byReference.get(machine.reference);
    const m = id ? machines.get(id) : undefined;
    if (m) {
      machines.delete(m.externalId);
      byReference.delete(m.reference);
    }
    this.networks.releaseMachine(m ? [m.externalId, machine.reference] : [machine.reference]);
    this.hosts.machineChanged();
  }

  async hypervisors(locationId: number): Promise<HypervisorCapacity[]> {
    return this.hosts.hypervisorsOf(locationId).map((h) => {
      const u = this.hosts.usage(h.name);
      return { name: h.name, vcpuTotal: h.vcpuTotal, vcpuUsed: u.vcpu, memoryMbTotal: h.memoryMbTotal, memoryMbUsed: u.memoryMb, machines: u.machines };
    });
  }

  publicIpPool(locationId: number): PublicIpPool {
    const cidr = this.hosts.options.ipPools?.[locationId] ?? `198.18.${locationId % 256}.0/24`;
    return { cidr, addresses: usableAddresses(cidr) };
  }

  /** For tests: is the machine of this reference running? undefined when it does not exist. */
  stateOf(reference: string):
    | {
        running: boolean;
        publicIp: string | null;
        hypervisor: string;
        cpu: number;
        memoryMb: number;
        diskGb: number | undefined;
        sshKeys: string[];
        userData: string | null;
        os: string;
        boots: number;
        rebuild: number;
        rescue: boolean;
      }
    | undefined {
    const id = this.hosts.byReference.get(reference);
    const m = id ? this.hosts.machines.get(id) : undefined;
    return m
      ? {
          running: m.running,
          publicIp: m.publicIp,
          hypervisor: m.hypervisor,
          cpu: m.cpu,
          memoryMb: m.memoryMb,
          diskGb: m.diskGb,
          sshKeys: m.sshKeys,
          userData: m.userData,
          os: m.os ?? '',
          boots: m.boots ?? 0,
          rebuild: m.rebuild ?? 0,
          rescue: m.rescue ?? false,
        }
      : undefined;
  }
}

import type { DatacenterRef } from '../shared.js';
import { VmHostError, type HypervisorCapacity, type MachineSpec, type ProvisionedVm, type PublicIpPool, type VmHosts, type VmSize, type VmSpec } from '../vm-hosts.js';
import { domainSize, hasSize, resizedDomainXml } from './domain-resize.js';
import { allAddresses, cidrText, contains, isHostAddress } from './addresses.js';
import type { LocationConfig } from './config.js';
import type { ConfigDrives } from './config-drive.js';
import { domainXml, parseDomainXml, type NicSpec, type ParsedDomain } from './domain-xml.js';
import { kernelCommandLine, MAX_CMDLINE, parseSshKey } from './guest-config.js';
import type { BootPrerequisites, GuestBoot } from './guest-boot.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import type { LibvirtNetworkFabric } from './libvirt-network-fabric.js';
import { LibvirtVmActions } from './libvirt-vm-actions.js';
import { validReference } from './names.js';
import type { DomainState } from './virsh.js';

export type CreateStep = 'disks' | 'defined';

/** Test hook: awaited after each step of a create that makes something (a test kills the process there). */
export type OnCreateStep = (step: CreateStep, reference: string) => void | Promise<void>;

/**
 * VMs as libvirt domains named `<prefix>-<reference>` (their external id), with a copy-on-write
 * overlay of the OS image as boot disk, an optional data disk, and a NoCloud drive (also the kernel
 * command line, for an image booted from its kernel) carrying the guest's name, public address and SSH keys.
 * createVm and startVm return once the guest is up (GuestBoot).
 */
export class LibvirtVmHosts implements VmHosts {
  constructor(
    private readonly access: HostAccess,
    private readonly guests: GuestBoot,
    private readonly drives: ConfigDrives,
    /** a VM's private addresses and, on delete, its reservations and its host's firewall */
    private readonly fabric: Pick<LibvirtNetworkFabric, 'reserve' | 'releaseAddresses'>,
    private readonly firewall: Pick<BootPrerequisites, 'applyFirewall'>,
    private readonly onCreateStep?: OnCreateStep,
  ) {
    this.actions = new LibvirtVmActions(access, guests, drives);
  }

  private readonly actions: LibvirtVmActions;

  rebootVm(externalId: string, hard: boolean): Promise<void> {
    return this.actions.reboot(externalId, hard);
  }

  rebuildVm(spec: MachineSpec): Promise<void> {
    return this.actions.rebuild(spec);
  }

  rescueVm(spec: MachineSpec): Promise<void> {
    return this.actions.rescue(spec);
  }

  unrescueVm(spec: MachineSpec, start: boolean): Promise<void> {
    return this.actions.unrescue(spec, start);
  }

  // ---------------------------------------------------------------- capacity and pools

  async hypervisors(locationId: number): Promise<HypervisorCapacity[]> {
    return this.access.wrap('capacity', () => Promise.all(this.access.hypervisorsOf(locationId, 'capacity').map((hv) => this.capacityOf(hv))));
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
    const loc = this.access.config.locations.get(locationId);
    if (!loc) return { cidr: '', addresses: [] };
    const lb = loc.loadBalancerAddresses;
    const addresses = allAddresses(loc.publicNetwork).filter((a) => isHostAddress(loc.publicNetwork, a) && !(lb && contains(lb, a)));
    return { cidr: cidrText(loc.publicNetwork), addresses };
  }

  /**
   * The hypervisor with the most free memory among those with room for the machine. A machine
   * made from a snapshot goes to the hypervisor that keeps the snapshot's copy (snapshots live
   * beside the disks of the machine they were taken of; they are not copied between hosts).
   */
  private async place(location: LocationConfig, spec: VmSpec): Promise<Hypervisor> {
    let hvs = this.access.hypervisorsOf(location.id, 'create');
    if (spec.fromSnapshot) {
      const ref = spec.fromSnapshot.reference;
      const keeps = await Promise.all(hvs.map(async (hv) => (await hv.host.run(['test', '-f', this.access.names.snapshotDisk(hv.config.imageDir, ref, 'boot')], { okCodes: [0, 1] })).code === 0));
      hvs = hvs.filter((_, i) => keeps[i]);
      if (hvs.length === 0) throw new VmHostError('create', 'the snapshot to create the machine from is not on any hypervisor of its location');
    }
    const caps = await Promise.all(hvs.map(async (hv) => ({ hv, cap: await this.capacityOf(hv) })));
    const fits = caps.filter(({ cap }) => cap.vcpuUsed + spec.cpu <= cap.vcpuTotal && cap.memoryMbUsed + spec.memoryMb <= cap.memoryMbTotal);
    if (fits.length === 0 && spec.fromSnapshot) throw new VmHostError('create', `the hypervisor that keeps the snapshot has no room for ${spec.cpu} vCPU / ${spec.memoryMb} MB`, true);
    if (fits.length === 0) throw new VmHostError('create', `no hypervisor in location ${location.id} has room for ${spec.cpu} vCPU / ${spec.memoryMb} MB`, true);
    fits.sort((a, b) => b.cap.memoryMbTotal - b.cap.memoryMbUsed - (a.cap.memoryMbTotal - a.cap.memoryMbUsed));
    return fits[0]!.hv;
  }

  // ---------------------------------------------------------------- VMs

  async createVm(spec: VmSpec): Promise<ProvisionedVm> {
    this.access.checkReference(spec.reference, 'create');
    return this.access.serial(`vm:${spec.reference}`, () => this.access.wrap('create', () => this.create(spec)));
  }

  private async create(spec: VmSpec): Promise<ProvisionedVm> {
    const { access } = this;
    const { names, config } = access;
    const ref = spec.reference;
    const name = names.domain(ref);
    const location = config.locations.get(spec.locationId);
    if (!location) throw new VmHostError('create', `location ${spec.locationId} has no hypervisors configured`);
    const image = config.images[spec.os];
    if (!image) throw new VmHostError('create', `no image is configured for the OS ${spec.os}`);
    const keys = spec.sshKeys ?? [];
    for (const k of keys) if (!parseSshKey(k)) throw new VmHostError('create', `not an SSH public key: ${k.slice(0, 40)}`);
    if (spec.publicIp !== null && !this.publicIpPool(location.id).addresses.includes(spec.publicIp)) {
      throw new VmHostError('create', `address ${spec.publicIp} is not in the pool ${cidrText(location.publicNetwork)}`);
    }

    const found = await access.findDomain(ref, access.hypervisorsOf(location.id, 'create'));
    if (found) {
      await this.guests.ensureUp(found.hv, ref, found.state, 'create');
      return { externalId: name, hypervisor: found.hv.config.name };
    }
    // No domain: whatever an interrupted create left (disks, drive, console) goes before we start again.
    await Promise.all(access.hypervisorsOf(location.id, 'create').map((hv) => this.removeFiles(hv, ref)));

    const hv = await this.place(location, spec);
    await access.prepareHost(hv);
    const imageDir = hv.config.imageDir;
    const rootDisk = names.rootDisk(imageDir, ref);
    if (spec.fromSnapshot) {
      // a copy of the snapshot's boot disk, standalone, grown to the tier's disk
      const copy = names.snapshotDisk(imageDir, spec.fromSnapshot.reference, 'boot');
      if ((await hv.host.run(['test', '-f', copy], { okCodes: [0, 1] })).code !== 0) throw new VmHostError('create', 'the snapshot to create the machine from is not on the hypervisor chosen for it');
      await hv.host.run(['rm', '-f', `${rootDisk}.part`]);
      await hv.host.run(['qemu-img', 'convert', '-q', '-O', 'qcow2', copy, `${rootDisk}.part`], { timeoutMs: 30 * 60_000 });
      await hv.host.run(['qemu-img', 'resize', '-q', `${rootDisk}.part`, `${spec.diskGb}G`]);
      await hv.host.run(['mv', '-f', `${rootDisk}.part`, rootDisk]);
    } else {
      await hv.host.run(['qemu-img', 'create', '-q', '-f', 'qcow2', '-b', access.imagePath(hv, image.disk), '-F', 'qcow2', rootDisk, `${spec.diskGb}G`]);
    }
    let dataDisk: { path: string; block: boolean } | null = null;
    if (spec.blockStorage) {
      const size = `${spec.blockStorage.sizeGb}G`;
      // the snapshot's volume, when it holds one, is written onto the new volume
      const held = spec.fromSnapshot ? names.snapshotDisk(imageDir, spec.fromSnapshot.reference, 'volume') : null;
      const copy = held && (await hv.host.run(['test', '-f', held], { okCodes: [0, 1] })).code === 0 ? held : null;
      if (copy) {
        const heldBytes = (JSON.parse((await hv.host.run(['qemu-img', 'info', '-U', '--output=json', copy])).stdout) as { 'virtual-size': number })['virtual-size'];
        if (heldBytes > spec.blockStorage.sizeGb * 1024 ** 3) throw new VmHostError('create', `the volume (${spec.blockStorage.sizeGb} GB) is smaller than the snapshot's`);
      }
      if (hv.config.volumeGroup) {
        const lv = names.dataVolume(hv.config.volumeGroup, ref);
        await hv.host.run(['lvcreate', '-q', '-y', '-L', size, '-n', lv.split('/').pop()!, hv.config.volumeGroup]);
        if (copy) await hv.host.run(['qemu-img', 'convert', '-q', '-n', '-O', 'raw', copy, lv], { timeoutMs: 30 * 60_000 });
        dataDisk = { path: lv, block: true };
      } else {
        const file = names.dataDisk(imageDir, ref);
        if (copy) {
          await hv.host.run(['rm', '-f', `${file}.part`]);
          await hv.host.run(['qemu-img', 'convert', '-q', '-O', 'qcow2', copy, `${file}.part`], { timeoutMs: 30 * 60_000 });
          await hv.host.run(['qemu-img', 'resize', '-q', `${file}.part`, size]);
          await hv.host.run(['mv', '-f', `${file}.part`, file]);
        } else {
          await hv.host.run(['qemu-img', 'create', '-q', '-f', 'qcow2', file, size]);
        }
        dataDisk = { path: file, block: false };
      }
    }

    // addresses on private networks it boots with: reservations first, so its DHCP finds them
    const privateNics: NicSpec[] = [];
    for (const p of spec.privateAddresses ?? []) {
      privateNics.push(await this.fabric.reserve({ network: p.network, vm: { externalId: null, reference: ref }, ip: p.ip }, location, hv, 'create'));
    }
    const identity = this.drives.identity(location, ref, spec.publicIp, privateNics.map((n) => n.mac), keys, spec.userData ?? null);
    const configDrive = await this.drives.write(hv, identity);
    await this.onCreateStep?.('disks', ref);

    const nics: NicSpec[] = [];
    if (spec.publicIp !== null) nics.push({ mac: names.publicMac(ref), bridge: hv.config.publicBridge, tap: names.publicTap(ref) });
    nics.push(...privateNics);
    let boot: Parameters<typeof domainXml>[0]['boot'] = { kind: 'disk' };
    if (image.kernel && image.initrd) {
      const cmdline = kernelCommandLine(identity, image.cmdline);
      if (cmdline.length > MAX_CMDLINE) throw new VmHostError('create', `the SSH keys do not fit on the kernel command line of the ${spec.os} image (${cmdline.length} bytes)`);
      boot = { kind: 'kernel', kernel: access.imagePath(hv, image.kernel), initrd: access.imagePath(hv, image.initrd), cmdline };
    }
    await hv.virsh.define(
      domainXml({
        name,
        uuid: names.uuid(ref),
        type: hv.config.domainType,
        vcpus: spec.cpu,
        memoryMb: spec.memoryMb,
        cpuLimit: spec.cpuLimit,
        boot,
        rootDisk,
        dataDisk,
        configDrive,
        nics,
        console: names.console(hv.config.stateDir, ref),
        metadata: { reference: ref, locationId: location.id, os: spec.os, publicIp: spec.publicIp, sshKeys: keys, userData: spec.userData ?? null },
      }),
    );
    await this.onCreateStep?.('defined', ref);
    await this.guests.boot(hv, ref, 'create'); // boot applies the firewall: it may already be in a security group
    return { externalId: name, hypervisor: hv.config.name };
  }

  async startVm(externalId: string): Promise<void> {
    const { access } = this;
    const ref = access.referenceOf(externalId);
    return access.serial(`vm:${ref}`, () =>
      access.wrap('start', async () => {
        const found = await access.findDomain(ref);
        if (!found) throw new VmHostError('start', `machine ${ref} does not exist`);
        await access.prepareHost(found.hv);
        await this.guests.ensureUp(found.hv, ref, found.state, 'start');
      }),
    );
  }

  /** ACPI shutdown; pulled off after shutdownTimeoutSeconds. A machine that is gone is stopped. */
  async stopVm(externalId: string): Promise<void> {
    const { access } = this;
    const ref = access.referenceOf(externalId);
    return access.serial(`vm:${ref}`, () =>
      access.wrap('stop', async () => {
        const found = await access.findDomain(ref);
        if (found) await this.guests.shutOff(found.hv, ref, found.state);
      }),
    );
  }

  /**
   * New vCPUs, memory and CPU limit in the persistent definition and a larger boot overlay
   * (`qemu-img resize`, never smaller): a running domain is shut down for it and booted again.
   * Nothing to change: the domain is only brought to the state asked.
   */
  async resizeVm(externalId: string, size: VmSize, running: boolean): Promise<void> {
    const { access } = this;
    const ref = access.referenceOf(externalId);
    return access.serial(`vm:${ref}`, () =>
      access.wrap('resize', async () => {
        const found = await access.findDomain(ref);
        if (!found) throw new VmHostError('resize', `machine ${ref} does not exist`);
        const { hv } = found;
        const xml = await hv.virsh.dumpXml(access.names.domain(ref), true);
        if (!xml) throw new VmHostError('resize', `machine ${ref} does not exist`);
        const current = domainSize(xml);
        const rootDisk = access.names.rootDisk(hv.config.imageDir, ref);
        const info = JSON.parse((await hv.host.run(['qemu-img', 'info', '-U', '--output=json', rootDisk])).stdout) as { 'virtual-size': number };
        const grow = info['virtual-size'] < size.diskGb * 1024 ** 3;
        let state = found.state;
        if (!hasSize(current, size) || grow) {
          const cap = await this.capacityOf(hv);
          if (cap.vcpuUsed - current.vcpus + size.cpu > cap.vcpuTotal || cap.memoryMbUsed - current.memoryMb + size.memoryMb > cap.memoryMbTotal) {
            throw new VmHostError('resize', `hypervisor ${hv.config.name} has no room for ${size.cpu} vCPU / ${size.memoryMb} MB`, true);
          }
          await this.guests.shutOff(hv, ref, state);
          state = 'shut off';
          await hv.virsh.define(resizedDomainXml(xml, size));
          if (grow) await hv.host.run(['qemu-img', 'resize', '-q', rootDisk, `${size.diskGb}G`]);
        }
        if (running) {
          await access.prepareHost(hv);
          await this.guests.ensureUp(hv, ref, state, 'resize');
        } else {
          await this.guests.shutOff(hv, ref, state);
        }
      }),
    );
  }

  async deleteVm(machine: DatacenterRef): Promise<void> {
    const { access } = this;
    const ref = access.refOf(machine);
    if (!validReference(ref)) return;
    return access.serial(`vm:${ref}`, () =>
      access.wrap('delete', async () => {
        const found = await access.findDomain(ref);
        if (found) {
          await found.hv.virsh.destroy(access.names.domain(ref));
          await found.hv.virsh.undefine(access.names.domain(ref));
        }
        const where = found ? access.hypervisorsOf(found.hv.location.id, 'delete') : access.hypervisorList;
        await Promise.all(where.map((hv) => this.removeFiles(hv, ref)));
        await this.fabric.releaseAddresses(ref, where);
        if (found) await this.firewall.applyFirewall(found.hv);
      }),
    );
  }

  /** The VM's disks, drive, console and boot mark on one hypervisor (what is there of them). */
  private async removeFiles(hv: Hypervisor, ref: string): Promise<void> {
    const names = this.access.names;
    const c = hv.config;
    const files = [names.rootDisk(c.imageDir, ref), names.dataDisk(c.imageDir, ref), names.configDrive(c.imageDir, ref), names.console(c.stateDir, ref), names.bootMark(c.stateDir, ref)];
    await hv.host.sh('rm -f "$@"', files);
    await hv.host.sh('rm -rf "$1"', [`${c.stateDir}/${names.domain(ref)}.cidata`]);
    if (c.volumeGroup) {
      const lv = names.dataVolume(c.volumeGroup, ref);
      await hv.host.sh('[ ! -e "$1" ] || lvremove -q -f "$1"', [lv]);
    }
  }

  /** For operators and tests: the domain of a reference as libvirt has it (its state and what we keep on it), or null. */
  async describeVm(reference: string): Promise<(ParsedDomain & { state: DomainState; hypervisor: string; console: string }) | null> {
    const { access } = this;
    const found = await access.findDomain(reference);
    if (!found) return null;
    const xml = await found.hv.virsh.dumpXml(access.names.domain(reference), true);
    if (!xml) return null;
    return { ...parseDomainXml(xml), state: found.state, hypervisor: found.hv.config.name, console: access.names.console(found.hv.config.stateDir, reference) };
  }
}

import { VmHostError, type MachineSpec, type VmOperation } from '../vm-hosts.js';
import type { ConfigDrives } from './config-drive.js';
import { domainXml, parseDomainXml, type BootSpec, type ParsedDomain } from './domain-xml.js';
import { kernelCommandLine, MAX_CMDLINE, parseSshKey } from './guest-config.js';
import type { GuestBoot } from './guest-boot.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import type { DomainState } from './virsh.js';

interface Found {
  hv: Hypervisor;
  state: DomainState;
  domain: ParsedDomain;
}

/**
 * What a customer does to a VM that exists besides start and stop: reboot, rebuild and rescue.
 * Rebuild and rescue define the domain anew over the disks it has (its NICs and data disk kept), so
 * repeating one finds the domain already as asked (its metadata says which rebuild made the boot
 * disk and whether it boots the rescue system) and only makes sure it runs.
 */
export class LibvirtVmActions {
  constructor(
    private readonly access: HostAccess,
    private readonly guests: GuestBoot,
    private readonly drives: ConfigDrives,
  ) {}

  private run(externalId: string, operation: VmOperation, fn: (ref: string, found: Found) => Promise<void>): Promise<void> {
    const { access } = this;
    const ref = access.referenceOf(externalId);
    access.checkReference(ref, operation);
    return access.serial(`vm:${ref}`, () =>
      access.wrap(operation, async () => {
        const where = await access.findDomain(ref);
        if (!where) throw new VmHostError(operation, `machine ${ref} does not exist`);
        const xml = await where.hv.virsh.dumpXml(access.names.domain(ref), true);
        if (!xml) throw new VmHostError(operation, `machine ${ref} does not exist`);
        await access.prepareHost(where.hv);
        await fn(ref, { ...where, domain: parseDomainXml(xml) });
      }),
    );
  }

  /** ACPI reboot; a guest that has not come back within the shutdown timeout is reset. hard: reset at once. */
  reboot(externalId: string, hard: boolean): Promise<void> {
    return this.run(externalId, 'reboot', async (ref, { hv, state }) => {
      if (state !== 'running') return this.guests.ensureUp(hv, ref, state, 'reboot');
      const name = this.access.names.domain(ref);
      const offset = await this.guests.markBoot(hv, ref);
      const { shutdownTimeoutSeconds, bootTimeoutSeconds } = this.access.config;
      if (!hard && shutdownTimeoutSeconds > 0) {
        await hv.virsh.run(['reboot', name, '--mode', 'acpi']);
        if ((await this.guests.upWithin(hv, ref, offset, 'reboot', shutdownTimeoutSeconds + bootTimeoutSeconds)) === true) return;
      }
      await hv.virsh.run(['reset', name]);
      await this.guests.waitUp(hv, ref, offset, 'reboot');
    });
  }

  /** A fresh boot disk from the spec's OS image and a new instance id; addresses, keys and the data disk stay. */
  rebuild(spec: MachineSpec): Promise<void> {
    return this.run(spec.externalId, 'rebuild', async (ref, { hv, state, domain }) => {
      const instanceId = this.instanceId(ref, spec.rebuild);
      if (domain.metadata?.instanceId === instanceId && !domain.metadata.rescue) return this.guests.ensureUp(hv, ref, state, 'rebuild');
      const image = this.image(spec.os, 'rebuild');
      await hv.virsh.destroy(this.access.names.domain(ref)); // what is on the boot disk goes anyway
      const rootDisk = this.access.names.rootDisk(hv.config.imageDir, ref);
      await hv.host.run(['rm', '-f', rootDisk]);
      await hv.host.run(['qemu-img', 'create', '-q', '-f', 'qcow2', '-b', this.access.imagePath(hv, image.disk), '-F', 'qcow2', rootDisk, `${spec.diskGb}G`]);
      await this.define(hv, ref, spec, domain, instanceId, false);
      await this.guests.boot(hv, ref, 'rebuild');
    });
  }

  /** Boots the rescue system with the VM's own disks attached (vda, vdb as usual). */
  rescue(spec: MachineSpec): Promise<void> {
    return this.run(spec.externalId, 'rescue', async (ref, { hv, state, domain }) => {
      if (domain.metadata?.rescue) return this.guests.ensureUp(hv, ref, state, 'rescue');
      await this.guests.shutOff(hv, ref, state);
      await this.define(hv, ref, spec, domain, domain.metadata?.instanceId ?? this.instanceId(ref, spec.rebuild), true);
      await this.guests.boot(hv, ref, 'rescue');
    });
  }

  /** Its own disk boots again; a machine that ran the rescue system is restarted into it when `start`. */
  unrescue(spec: MachineSpec, start: boolean): Promise<void> {
    return this.run(spec.externalId, 'rescue', async (ref, { hv, state, domain }) => {
      if (domain.metadata?.rescue) {
        await this.guests.shutOff(hv, ref, state);
        await this.define(hv, ref, spec, domain, domain.metadata.instanceId ?? this.instanceId(ref, spec.rebuild), false);
        state = 'shut off';
      }
      if (start) await this.guests.ensureUp(hv, ref, state, 'rescue');
    });
  }

  /** The guest's instance id: the domain's name until the first rebuild, then one per rebuild. */
  private instanceId(ref: string, rebuild: number): string {
    const name = this.access.names.domain(ref);
    return rebuild > 0 ? `${name}-rebuild-${rebuild}` : name;
  }

  private image(os: string, operation: VmOperation) {
    const image = this.access.config.images[os];
    if (!image) throw new VmHostError(operation, `no image is configured for the OS ${os}`);
    return image;
  }


  /**
   * Defines the domain again over its disks: the spec's OS image (a NoCloud drive written with the
   * instance id, or its kernel command line) or the rescue system (kernel command line, no drive).
   */
  private async define(hv: Hypervisor, ref: string, spec: MachineSpec, domain: ParsedDomain, instanceId: string, rescue: boolean): Promise<void> {
    const { access } = this;
    const { names, config } = access;
    const operation: VmOperation = rescue ? 'rescue' : 'rebuild';
    const keys = spec.sshKeys ?? [];
    for (const k of keys) if (!parseSshKey(k)) throw new VmHostError(operation, `not an SSH public key: ${k.slice(0, 40)}`);
    const publicMac = names.publicMac(ref);
    const privateMacs = domain.nics.filter((n) => n.mac !== publicMac).map((n) => n.mac);
    const identity = this.drives.identity(hv.location, ref, spec.publicIp, privateMacs, keys, spec.userData ?? null, instanceId);
    let boot: BootSpec = { kind: 'disk' };
    const kernelBoot = (kernel: string, initrd: string, extra: string | undefined) => {
      const cmdline = kernelCommandLine(identity, extra);
      if (cmdline.length > MAX_CMDLINE) throw new VmHostError(operation, `the SSH keys do not fit on the kernel command line (${cmdline.length} bytes)`);
      return { kind: 'kernel' as const, kernel: access.imagePath(hv, kernel), initrd: access.imagePath(hv, initrd), cmdline };
    };
    if (rescue) {
      if (!config.rescue) throw new VmHostError('rescue', 'no rescue system is configured in this datacenter');
      boot = kernelBoot(config.rescue.kernel, config.rescue.initrd, config.rescue.cmdline);
    } else {
      const image = this.image(spec.os, operation);
      if (image.kernel && image.initrd) boot = kernelBoot(image.kernel, image.initrd, image.cmdline);
    }
    // every image gets its NoCloud drive, as at create (the rescue system ignores it)
    const configDrive = await this.drives.write(hv, identity);
    const dataFile = names.dataDisk(hv.config.imageDir, ref);
    const dataVolume = hv.config.volumeGroup ? names.dataVolume(hv.config.volumeGroup, ref) : null;
    const dataDisk = dataVolume && domain.disks.includes(dataVolume) ? { path: dataVolume, block: true } : domain.disks.includes(dataFile) ? { path: dataFile, block: false } : null;
    await hv.virsh.define(
      domainXml({
        name: names.domain(ref),
        uuid: names.uuid(ref),
        type: hv.config.domainType,
        vcpus: spec.cpu,
        memoryMb: spec.memoryMb,
        cpuLimit: spec.cpuLimit,
        boot,
        rootDisk: names.rootDisk(hv.config.imageDir, ref),
        dataDisk,
        configDrive,
        nics: domain.nics,
        console: names.console(hv.config.stateDir, ref),
        metadata: { reference: ref, locationId: hv.location.id, os: spec.os, publicIp: spec.publicIp, sshKeys: keys, userData: spec.userData ?? null, instanceId, ...(rescue ? { rescue: true } : {}) },
      }),
    );
  }
}

import { create } from 'xmlbuilder2';

type XMLBuilder = ReturnType<typeof create>;
const METADATA_NS = 'urn:cloud-platform:libvirt:vm';

export interface NicSpec {
  mac: string;
  bridge: string;
  /** the tap device on the host (the firewall matches the VM's taps by their common prefix) */
  tap: string;
}

export type BootSpec = { kind: 'kernel'; kernel: string; initrd: string; cmdline: string } | { kind: 'disk' };

export interface DomainSpec {
  name: string;
  uuid: string;
  type: 'kvm' | 'qemu';
  vcpus: number;
  memoryMb: number;
  /** percent of the vCPUs the guest may use; 100 or more: no limit */
  cpuLimit: number;
  boot: BootSpec;
  rootDisk: string;
  dataDisk: { path: string; block: boolean } | null;
  configDrive: string | null;
  nics: NicSpec[];
  console: string;
  metadata: VmMetadata;
}

/** What we keep on the domain itself, so any process can answer from libvirt alone. */
export interface VmMetadata {
  reference: string;
  locationId: number;
  os: string;
  publicIp: string | null;
  /** public keys only: the config drive is rebuilt from them when its NICs change */
  sshKeys: string[];
  /** the customer's user data, kept as base64 (any text survives the XML) for the same reason */
  userData: string | null;
  /** the guest's instance id when a rebuild changed it (absent: the domain's name) */
  instanceId?: string;
  /** it boots the rescue system */
  rescue?: boolean;
}

export const CPU_PERIOD_US = 100_000;

/** The cputune quota per vCPU of a CPU limit (percent), or null for no limit. */
export function cpuQuota(cpuLimit: number): number | null {
  return cpuLimit < 100 ? Math.max(1000, Math.floor((CPU_PERIOD_US * cpuLimit) / 100)) : null;
}

/** The domain XML of a VM (every value escaped by the XML builder). */
export function domainXml(s: DomainSpec): string {
  const d = create({ version: '1.0' }).ele('domain', { type: s.type });
  d.ele('name').txt(s.name);
  d.ele('uuid').txt(s.uuid);
  const meta = d.ele('metadata').ele(METADATA_NS, 'cp:vm', {
    reference: s.metadata.reference,
    location: String(s.metadata.locationId),
    os: s.metadata.os,
    ...(s.metadata.publicIp ? { 'public-ip': s.metadata.publicIp } : {}),
    ...(s.metadata.instanceId ? { 'instance-id': s.metadata.instanceId } : {}),
    ...(s.metadata.rescue ? { rescue: 'yes' } : {}),
  });
  for (const key of s.metadata.sshKeys) meta.ele(METADATA_NS, 'cp:ssh-key').txt(key);
  if (s.metadata.userData) meta.ele(METADATA_NS, 'cp:user-data', { encoding: 'base64' }).txt(Buffer.from(s.metadata.userData, 'utf8').toString('base64'));
  d.ele('memory', { unit: 'MiB' }).txt(String(s.memoryMb));
  d.ele('vcpu', { placement: 'static' }).txt(String(s.vcpus));
  const quota = cpuQuota(s.cpuLimit);
  if (quota !== null) {
    // the quota is per vCPU: cpuLimit percent of each
    const t = d.ele('cputune');
    t.ele('period').txt(String(CPU_PERIOD_US));
    t.ele('quota').txt(String(quota));
  }
  const os = d.ele('os');
  os.ele('type', { arch: 'x86_64', machine: 'pc' }).txt('hvm');
  if (s.boot.kind === 'kernel') {
    os.ele('kernel').txt(s.boot.kernel);
    os.ele('initrd').txt(s.boot.initrd);
    os.ele('cmdline').txt(s.boot.cmdline);
  } else {
    os.ele('boot', { dev: 'hd' });
  }
  d.ele('features').ele('acpi');
  if (s.type === 'kvm') d.ele('cpu', { mode: 'host-model' });
  d.ele('on_poweroff').txt('destroy');
  d.ele('on_reboot').txt('restart');
  d.ele('on_crash').txt('destroy');
  const dev = d.ele('devices');
  disk(dev, { file: s.rootDisk }, 'vda');
  if (s.dataDisk) disk(dev, s.dataDisk.block ? { dev: s.dataDisk.path } : { file: s.dataDisk.path }, 'vdb');
  if (s.configDrive) {
    const c = dev.ele('disk', { type: 'file', device: 'cdrom' });
    c.ele('driver', { name: 'qemu', type: 'raw' });
    c.ele('source', { file: s.configDrive });
    // IDE: built into every cloud kernel on the `pc` machine type (Debian's has no AHCI driver for SATA)
    c.ele('target', { dev: 'hdc', bus: 'ide' });
    c.ele('readonly');
  }
  for (const nic of s.nics) nicElement(dev, nic);
  // entropy from the host: without it a guest waits for its random pool (no RDRAND under TCG)
  dev.ele('rng', { model: 'virtio' }).ele('backend', { model: 'random' }).txt('/dev/urandom');
  // the balloon driver reports the guest's memory use every 10 s (virsh domstats --balloon: memory in use for the graphs)
  dev.ele('memballoon', { model: 'virtio' }).ele('stats', { period: '10' });
  // a pty, so `virsh console` can join it; everything the guest prints is also logged to the file
  const serial = dev.ele('serial', { type: 'pty' });
  serial.ele('log', { file: s.console, append: 'on' });
  serial.ele('target', { port: '0' });
  const con = dev.ele('console', { type: 'pty' });
  con.ele('log', { file: s.console, append: 'on' });
  con.ele('target', { type: 'serial', port: '0' });
  return d.end({ prettyPrint: true, headless: true });
}

function disk(dev: XMLBuilder, source: { file: string } | { dev: string }, target: string): void {
  const block = 'dev' in source;
  const e = dev.ele('disk', { type: block ? 'block' : 'file', device: 'disk' });
  e.ele('driver', { name: 'qemu', type: block ? 'raw' : 'qcow2', cache: 'none', discard: 'unmap' });
  e.ele('source', source);
  e.ele('target', { dev: target, bus: 'virtio' });
}

function nicElement(parent: XMLBuilder, nic: NicSpec): void {
  const i = parent.ele('interface', { type: 'bridge' });
  i.ele('mac', { address: nic.mac });
  i.ele('source', { bridge: nic.bridge });
  i.ele('target', { dev: nic.tap });
  i.ele('model', { type: 'virtio' });
}

/** One NIC as a device for attach-device / detach-device. */
export function interfaceXml(nic: NicSpec): string {
  const root = create();
  nicElement(root, nic);
  return root.end({ prettyPrint: true, headless: true });
}

export interface ParsedDomain {
  name: string;
  metadata: VmMetadata | null;
  nics: NicSpec[];
  disks: string[];
}

/** Reads back what we need from `virsh dumpxml`. */
export function parseDomainXml(xml: string): ParsedDomain {
  const root = create(xml).root().node as unknown as Element;
  const first = (el: Element, tag: string): Element | undefined => el.getElementsByTagName(tag)[0];
  const name = first(root, 'name')?.textContent ?? '';
  const meta = root.getElementsByTagNameNS(METADATA_NS, 'vm')[0];
  const userData = meta?.getElementsByTagNameNS(METADATA_NS, 'user-data')[0]?.textContent;
  const metadata: VmMetadata | null = meta
    ? {
        reference: meta.getAttribute('reference') ?? '',
        locationId: Number(meta.getAttribute('location')),
        os: meta.getAttribute('os') ?? '',
        publicIp: meta.getAttribute('public-ip'),
        sshKeys: Array.from(meta.getElementsByTagNameNS(METADATA_NS, 'ssh-key')).map((k) => k.textContent ?? ''),
        userData: userData ? Buffer.from(userData, 'base64').toString('utf8') : null,
        ...(meta.getAttribute('instance-id') ? { instanceId: meta.getAttribute('instance-id')! } : {}),
        ...(meta.getAttribute('rescue') === 'yes' ? { rescue: true } : {}),
      }
    : null;
  const nics: NicSpec[] = [];
  for (const i of Array.from(root.getElementsByTagName('interface'))) {
    nics.push({
      mac: first(i, 'mac')?.getAttribute('address') ?? '',
      bridge: first(i, 'source')?.getAttribute('bridge') ?? '',
      tap: first(i, 'target')?.getAttribute('dev') ?? '',
    });
  }
  const disks: string[] = [];
  for (const dsk of Array.from(root.getElementsByTagName('disk'))) {
    const src = first(dsk, 'source');
    const p = src?.getAttribute('file') ?? src?.getAttribute('dev');
    if (p) disks.push(p);
  }
  return { name, metadata, nics, disks };
}

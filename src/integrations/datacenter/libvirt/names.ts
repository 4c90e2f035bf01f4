import { createHash } from 'node:crypto';

const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const validReference = (reference: string): boolean => REFERENCE.test(reference);

const hex = (...parts: string[]): string => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * Every name the adapter gives a thing, derived from our reference and the configured prefix, so
 * a repeated call finds what an earlier one made and an operator can list (and clean up)
 * everything with the prefix. Interface names stay within Linux's 15 characters.
 */
export class Names {
  constructor(readonly prefix: string) {}

  /** the libvirt domain, also the VM's external id */
  domain(reference: string): string {
    return `${this.prefix}-${reference}`;
  }

  /** our reference when `name` is one of our domains */
  referenceOf(name: string): string | undefined {
    return name.startsWith(`${this.prefix}-`) ? name.slice(this.prefix.length + 1) : undefined;
  }

  /** 7 hex digits naming the VM in interface names and firewall marks */
  vmKey(reference: string): string {
    return hex('vm', reference).slice(0, 7);
  }

  /** every tap device of the VM starts with this (the firewall matches it with a wildcard) */
  tapPrefix(reference: string): string {
    return `${this.prefix}${this.vmKey(reference)}`;
  }

  publicTap(reference: string): string {
    return `${this.tapPrefix(reference)}pub`;
  }

  privateTap(reference: string, network: string, ip: string): string {
    return `${this.tapPrefix(reference)}n${hex('nic', network, ip).slice(0, 3)}`;
  }

  /** a stable, locally administered-looking MAC in QEMU's range */
  mac(reference: string, ...key: string[]): string {
    const h = hex('mac', reference, ...key);
    return `52:54:00:${h.slice(0, 2)}:${h.slice(2, 4)}:${h.slice(4, 6)}`;
  }

  publicMac(reference: string): string {
    return this.mac(reference, 'public');
  }

  privateMac(reference: string, network: string, ip: string): string {
    return this.mac(reference, 'private', network, ip);
  }

  /** the domain's UUID: the same for the same reference, so a second define updates rather than duplicates */
  uuid(reference: string): string {
    const h = hex('uuid', this.prefix, reference);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** ingress (to the VM) and egress (from the VM) packet marks of the firewall */
  ingressMark(reference: string): number {
    return (0x10000000 | parseInt(this.vmKey(reference), 16)) >>> 0;
  }

  egressMark(reference: string): number {
    return (0x20000000 | parseInt(this.vmKey(reference), 16)) >>> 0;
  }

  private netKey(reference: string): string {
    return hex('net', reference).slice(0, 8);
  }

  bridge(network: string): string {
    return `${this.prefix}b${this.netKey(network)}`;
  }

  vxlan(network: string): string {
    return `${this.prefix}x${this.netKey(network)}`;
  }

  /** 24-bit VXLAN network identifier */
  vni(network: string): number {
    return parseInt(hex('vni', network).slice(0, 6), 16) || 1;
  }

  /** the namespace holding the network's gateway address and its dnsmasq */
  networkNamespace(network: string): string {
    return `${this.prefix}-${this.netKey(network)}`;
  }

  /** veth pair between the network's bridge (host side) and its namespace */
  dhcpVethHost(network: string): string {
    return `${this.prefix}d${this.netKey(network)}`;
  }

  dhcpVethInside(network: string): string {
    return `${this.prefix}e${this.netKey(network)}`;
  }

  private lbKey(reference: string): string {
    return hex('lb', reference).slice(0, 8);
  }

  balancerNamespace(balancer: string): string {
    return `${this.prefix}-lb${this.lbKey(balancer)}`;
  }

  balancerVethHost(balancer: string): string {
    return `${this.prefix}l${this.lbKey(balancer)}`;
  }

  balancerVethInside(balancer: string): string {
    return `${this.prefix}m${this.lbKey(balancer)}`;
  }

  /** the nftables tables (bridge family marks, inet family filters) */
  get table(): string {
    return this.prefix;
  }

  // files: a flat, prefixed layout in the hypervisor's directories

  rootDisk(imageDir: string, reference: string): string {
    return `${imageDir}/${this.domain(reference)}-root.qcow2`;
  }

  /** a snapshot's copy of one disk of its machine (`disk`: boot or volume) */
  snapshotDisk(imageDir: string, reference: string, disk: string): string {
    return `${imageDir}/${this.domain(reference)}-${disk}.qcow2`;
  }

  dataDisk(imageDir: string, reference: string): string {
    return `${imageDir}/${this.domain(reference)}-data.qcow2`;
  }

  dataVolume(volumeGroup: string, reference: string): string {
    return `/dev/${volumeGroup}/${this.domain(reference)}-data`;
  }

  configDrive(imageDir: string, reference: string): string {
    return `${imageDir}/${this.domain(reference)}-cidata.iso`;
  }

  console(stateDir: string, reference: string): string {
    return `${stateDir}/${this.domain(reference)}.console.log`;
  }

  /** where the console was when the domain was last started (the guest is up once the ready line follows it) */
  bootMark(stateDir: string, reference: string): string {
    return `${stateDir}/${this.domain(reference)}.boot`;
  }

  networkFile(stateDir: string, network: string): string {
    return `${stateDir}/${this.prefix}-net-${this.netKey(network)}.json`;
  }

  dhcpHosts(stateDir: string, network: string): string {
    return `${stateDir}/${this.prefix}-net-${this.netKey(network)}.hosts`;
  }

  dhcpPid(stateDir: string, network: string): string {
    return `${stateDir}/${this.prefix}-net-${this.netKey(network)}.pid`;
  }

  balancerFile(stateDir: string, balancer: string): string {
    return `${stateDir}/${this.prefix}-lb-${this.lbKey(balancer)}.json`;
  }

  balancerConfig(stateDir: string, balancer: string): string {
    return `${stateDir}/${this.prefix}-lb-${this.lbKey(balancer)}.cfg`;
  }

  balancerPid(stateDir: string, balancer: string): string {
    return `${stateDir}/${this.prefix}-lb-${this.lbKey(balancer)}.pid`;
  }

  firewallFile(stateDir: string): string {
    return `${stateDir}/${this.prefix}-firewall.json`;
  }
}

import { gatewayOf } from './addresses.js';
import type { LocationConfig } from './config.js';
import { parseDomainXml } from './domain-xml.js';
import { noCloudFiles, type GuestIdentity } from './guest-config.js';
import type { HostAccess, Hypervisor } from './host-access.js';

/**
 * What a guest is told about itself (name, addresses, SSH keys, the customer's user data): the
 * NoCloud drive every VM gets (an image booted from its kernel, like the test image, reads its
 * kernel command line as well, and has no cloud-init to run user data). Written at create, and
 * rewritten when a private address is attached or detached (read at its next start).
 */
export class ConfigDrives {
  constructor(private readonly access: HostAccess) {}

  identity(location: LocationConfig, reference: string, publicIp: string | null, privateMacs: string[], sshKeys: string[], userData: string | null, instanceId?: string): GuestIdentity {
    const names = this.access.names;
    return {
      reference,
      instanceId: instanceId ?? names.domain(reference),
      publicNic: publicIp ? { mac: names.publicMac(reference), address: publicIp, prefix: location.publicNetwork.prefix, gateway: gatewayOf(location.publicNetwork) } : null,
      privateMacs,
      sshKeys,
      userData,
    };
  }

  /** The NoCloud drive (an ISO labelled cidata) of a VM. */
  async write(hv: Hypervisor, id: GuestIdentity): Promise<string> {
    const names = this.access.names;
    const iso = names.configDrive(hv.config.imageDir, id.reference);
    const dir = `${hv.config.stateDir}/${names.domain(id.reference)}.cidata`;
    await hv.host.sh('rm -rf "$1" && mkdir -p "$1"', [dir]);
    for (const [file, content] of Object.entries(noCloudFiles(id))) await hv.host.writeFile(`${dir}/${file}`, content);
    await hv.host.sh('genisoimage -quiet -output "$1.tmp" -volid cidata -joliet -rock "$2/user-data" "$2/meta-data" "$2/network-config" && mv -f "$1.tmp" "$1"; rc=$?; rm -rf "$2"; exit $rc', [iso, dir]);
    return iso;
  }

  /** A VM's NoCloud drive lists its NICs as they are now (read at its next start). */
  async refresh(hv: Hypervisor, vmRef: string): Promise<void> {
    const names = this.access.names;
    const xml = await hv.virsh.dumpXml(names.domain(vmRef), true);
    if (!xml) return;
    const d = parseDomainXml(xml);
    if (!d.metadata || !d.disks.includes(names.configDrive(hv.config.imageDir, vmRef))) return;
    const publicMac = names.publicMac(vmRef);
    const privateMacs = d.nics.filter((n) => n.mac !== publicMac).map((n) => n.mac);
    await this.write(hv, this.identity(hv.location, vmRef, d.metadata.publicIp, privateMacs, d.metadata.sshKeys, d.metadata.userData, d.metadata.instanceId));
  }
}

import type { Datacenter } from '../datacenter.js';
import type { LibvirtConfig } from './config.js';
import { ConfigDrives } from './config-drive.js';
import { GuestBoot } from './guest-boot.js';
import { HostAccess } from './host-access.js';
import { LibvirtBackups } from './libvirt-backups.js';
import { LibvirtBalancers } from './libvirt-balancers.js';
import { LibvirtConsoles } from './libvirt-consoles.js';
import { LibvirtFirewalls } from './libvirt-firewalls.js';
import { LibvirtMetrics } from './libvirt-metrics.js';
import { LibvirtSnapshots } from './libvirt-snapshots.js';
import { LibvirtNetworkFabric } from './libvirt-network-fabric.js';
import { LibvirtVmHosts, type OnCreateStep } from './libvirt-vm-hosts.js';

export { hostFailureMessage, type Hypervisor } from './host-access.js';
export type { CreateStep } from './libvirt-vm-hosts.js';

export interface LibvirtDatacenterOptions {
  /** Test hook: awaited after each step of a create that makes something (a test kills the process there). */
  onCreateStep?: OnCreateStep;
  /** how often the console is read while waiting for a guest (default 250 ms) */
  pollMs?: number;
}

/**
 * The datacenter on libvirt/QEMU hypervisors (DATACENTER=libvirt; configuration in
 * src/integrations/datacenter/libvirt/config.ts, documented in the README). Each capability is
 * one object over the shared HostAccess (the hypervisors, names, per-reference serialisation and
 * error mapping):
 * - vmHosts (libvirt-vm-hosts.ts, guest-boot.ts, config-drive.ts): libvirt domains that count as
 *   running once their guest is up;
 * - networkFabric (libvirt-network-fabric.ts): a bridge per private network on every hypervisor of
 *   the location (VXLAN between them) and DHCP reservations by MAC on the location's first one;
 * - firewalls (libvirt-firewalls.ts): nftables rules in the adapter's own tables;
 * - balancers (libvirt-balancers.ts): an HAProxy per balancer in its own namespace;
 * - consoles (libvirt-consoles.ts): the guest's serial port through `virsh console`;
 * - snapshots (libvirt-snapshots.ts): copies of a domain's disks by a backup job, written back on restore.
 * - backups (libvirt-backups.ts): point-in-time copies of the boot disk (`virsh backup-begin`) and restores.
 * - metrics (libvirt-metrics.ts): counters of every running domain of a host in one `virsh domstats`.
 * A VM's create and delete also use the fabric (its reservations) and the firewall (its host's
 * rules); what fails there is the VM's failure. Every call is idempotent; failures of libvirt or
 * of a host command become the capability's error.
 */
export class LibvirtDatacenter implements Datacenter {
  readonly kind = 'libvirt';
  readonly access: HostAccess;
  readonly vmHosts: LibvirtVmHosts;
  readonly networkFabric: LibvirtNetworkFabric;
  readonly firewalls: LibvirtFirewalls;
  readonly balancers: LibvirtBalancers;
  readonly consoles: LibvirtConsoles;
  readonly snapshots: LibvirtSnapshots;
  readonly backups: LibvirtBackups;
  readonly metrics: LibvirtMetrics;

  constructor(
    readonly config: LibvirtConfig,
    options: LibvirtDatacenterOptions = {},
  ) {
    this.access = new HostAccess(config);
    const drives = new ConfigDrives(this.access);
    this.firewalls = new LibvirtFirewalls(this.access);
    this.networkFabric = new LibvirtNetworkFabric(this.access, drives);
    const guests = new GuestBoot(
      this.access,
      { applyFirewall: (hv) => this.firewalls.applyFirewall(hv), ensureNetworksOf: (hv, vmRef) => this.networkFabric.ensureNetworksOf(hv, vmRef) },
      options.pollMs ?? 250,
    );
    this.vmHosts = new LibvirtVmHosts(this.access, guests, drives, this.networkFabric, this.firewalls, options.onCreateStep);
    this.balancers = new LibvirtBalancers(this.access);
    this.consoles = new LibvirtConsoles(this.access);
    this.snapshots = new LibvirtSnapshots(this.access, guests);
    this.backups = new LibvirtBackups(this.access);
    this.metrics = new LibvirtMetrics(this.access);
  }
}

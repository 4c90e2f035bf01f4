import { LibvirtDatacenter, type LibvirtDatacenterOptions } from './libvirt/libvirt-datacenter.js';
import type { LibvirtConfig } from './libvirt/config.js';
import { SimulatedDatacenter } from './simulated/simulated-datacenter.js';
import type { SimulatedDatacenterOptions } from './simulated/simulated-hosts.js';
import type { Datacenter } from './datacenter.js';

export * from './datacenter.js';
export * from './shared.js';
export * from './vm-hosts.js';
export * from './network-fabric.js';
export * from './firewalls.js';
export * from './balancers.js';
export * from './consoles.js';
export * from './snapshots.js';
export * from './backups.js';
export * from './metrics.js';
export { SimulatedDatacenter } from './simulated/simulated-datacenter.js';
export type { SimulatedDatacenterOptions } from './simulated/simulated-hosts.js';
export { usableAddresses } from './ip-pool.js';
export { HEALTH_CHECK_PATH_PATTERN } from './health-check-path.js';
export { LibvirtDatacenter, type LibvirtDatacenterOptions } from './libvirt/libvirt-datacenter.js';
export { loadLibvirtConfig, parseLibvirtConfig, LibvirtConfigError, type LibvirtConfig } from './libvirt/config.js';

export interface DatacenterConfig {
  /** simulated: in this process's memory (the default); libvirt: QEMU guests on libvirt hypervisors */
  kind: 'simulated' | 'libvirt';
  delayMs: number;
  /** the validated LIBVIRT_CONFIG; required for libvirt */
  libvirt?: LibvirtConfig | undefined;
}

export function createDatacenter(config: DatacenterConfig, options: SimulatedDatacenterOptions & LibvirtDatacenterOptions = {}): Datacenter {
  switch (config.kind) {
    case 'simulated':
      return new SimulatedDatacenter({ ...options, delayMs: config.delayMs });
    case 'libvirt':
      if (!config.libvirt) throw new Error('DATACENTER=libvirt needs its configuration (LIBVIRT_CONFIG)');
      return new LibvirtDatacenter(config.libvirt, options);
  }
}

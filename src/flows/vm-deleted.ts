import type { Executor } from '../platform/db/database.js';
import type { VmDeletedListener } from '../modules/compute/index.js';

/** Who holds something of a VM and lets go of it when the VM is Deleted (in that transaction). */
export interface VmDeletedListeners {
  /** its private addresses */
  networks: { releaseVm(tx: Executor, vmId: number): Promise<unknown> };
  /** its security group memberships */
  securityGroups: VmDeletedListener;
  /** its load balancer targets */
  loadBalancers: VmDeletedListener;
  /** its backup plan (and meter); its backups stay, a new VM can be made from them */
  backups: VmDeletedListener;
}

/**
 * A VM deleted: the reaction across modules, in one place. The listeners are passed as a function
 * because compute is built before the modules that depend on it; it is called at the first
 * deletion, when all exist.
 */
export function vmDeletedFlow(listeners: () => VmDeletedListeners): VmDeletedListener {
  return {
    async vmDeleted(tx, vmId) {
      const l = listeners();
      await l.networks.releaseVm(tx, vmId);
      await l.securityGroups.vmDeleted(tx, vmId);
      await l.loadBalancers.vmDeleted(tx, vmId);
      await l.backups.vmDeleted(tx, vmId);
    },
  };
}

import type { Executor } from '../../platform/db/database.js';
import type { Applied } from '../../platform/lifecycle/index.js';
import type { VmHosts, VmSpec } from '../../integrations/datacenter/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import type { VmStatus } from './compute.tables.js';

export type VmActionTask = 'reboot' | 'reset' | 'rebuild' | 'rescue' | 'unrescue';

export interface VmActionTaskDeps {
  vmHosts: VmHosts;
  repo: ComputeRepository;
  now: () => Date;
  /** the webhook event of a status change (none when the status stays) */
  changed(tx: Executor, vm: Vm, to: VmStatus): Promise<void>;
}

/**
 * The datacenter side of a VM action (VmActionsService wrote it): outside any transaction, then a
 * conditional finish. Reboot, rebuild and rescue end with the machine running; leaving rescue keeps
 * its power state.
 */
export async function applyVmAction(d: VmActionTaskDeps, vm: Vm, task: VmActionTask, spec: VmSpec): Promise<Applied> {
  const machine = { ...spec, externalId: vm.externalId ?? spec.reference, rebuild: vm.rebuilds };
  switch (task) {
    case 'reboot':
    case 'reset':
      await d.vmHosts.rebootVm(machine.externalId, task === 'reset');
      break;
    case 'rebuild':
      await d.vmHosts.rebuildVm(machine);
      break;
    case 'rescue':
      await d.vmHosts.rescueVm(machine);
      break;
    case 'unrescue':
      await d.vmHosts.unrescueVm(machine, vm.status === 'Running');
      break;
  }
  const runs = task !== 'unrescue' || vm.status === 'Running';
  const status: VmStatus = runs ? 'Running' : vm.status;
  return {
    record: async (tx) => {
      const started = runs && vm.status !== 'Running' ? { startedAt: d.now() } : {};
      const done = await d.repo.finishTask(tx, vm.id, task, { status, task: null, failedTask: null, ...started, updatedAt: d.now() });
      if (done) await d.changed(tx, vm, status);
    },
  };
}

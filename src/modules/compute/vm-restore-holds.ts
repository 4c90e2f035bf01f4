import type { Clock } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Lifecycle } from '../../platform/lifecycle/index.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { BillableStartRule } from '../charging/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { vmStateChanged } from './compute.events.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import { VM_KIND } from './compute.tables.js';

/**
 * The hold the backups module takes on a VM while it writes the VM's disk from a backup: the VM's
 * task is `restore` from the claim to the release, so every other change of it answers 409 VM_BUSY
 * meanwhile (and a restore asked while another change is in flight does too). The work itself is
 * the backups module's (its own durable work); the VM's lifecycle has nothing to do for it.
 */
export class VmRestoreHolds {
  constructor(
    private readonly repo: ComputeRepository,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
    private readonly billable: BillableStartRule,
    private readonly lifecycle: Lifecycle,
  ) {}

  /** The VM (of `customerId` when given), or undefined. */
  async find(ex: Executor, vmId: number, customerId?: number): Promise<Vm | undefined> {
    const vm = await this.repo.find(ex, vmId);
    return vm && (customerId === undefined || vm.customerId === customerId) && vm.status !== 'Deleted' ? vm : undefined;
  }

  /**
   * Checks that the VM may be restored now (Running or Stopped, no change in flight; a restore
   * starts it, so a Stopped VM of an account that may not start anything billable is refused) and
   * holds it. `check`: only the checks, no hold (asked before a restore is queued).
   */
  async claim(tx: Executor, vmId: number, opts: { customerId?: number; check?: boolean } = {}): Promise<Vm> {
    const vm = await this.repo.find(tx, vmId, { forUpdate: true });
    if (!vm || (opts.customerId !== undefined && vm.customerId !== opts.customerId) || vm.status === 'Deleted') throw new NotFoundError('VM');
    if (vm.task) throw new ConflictError(`The VM is busy (${vm.task} in progress); try again when it is done`, 'VM_BUSY');
    if (vm.status !== 'Running' && vm.status !== 'Stopped') throw new ConflictError(`A ${vm.status} VM cannot be restored`, vm.status === 'Suspended' ? 'VM_SUSPENDED' : 'INVALID_VM_STATE');
    if (vm.status === 'Stopped') await this.billable.assertMayStart(tx, vm.customerId);
    if (opts.check) return vm;
    return (await this.repo.update(tx, vm.id, { task: 'restore_backup', updatedAt: this.clock.now() }))!;
  }

  /**
   * Lets go of the VM: Running (the restore started it) or Stopped (it failed with the machine
   * off). A VM whose account was suspended meanwhile stays Suspended and is handed over to the
   * suspend, which stops the machine; it comes back as `status` when the account is resumed.
   */
  async release(tx: Executor, vmId: number, status: 'Running' | 'Stopped'): Promise<void> {
    const vm = await this.repo.find(tx, vmId, { forUpdate: true });
    if (!vm || vm.task !== 'restore_backup') return;
    const now = this.clock.now();
    if (vm.status === 'Suspended') {
      await this.repo.finishTask(tx, vmId, 'restore_backup', { task: 'suspend', suspendedFrom: status, updatedAt: now });
      await this.lifecycle.changed(tx, VM_KIND, vmId);
      return;
    }
    await this.repo.finishTask(tx, vmId, 'restore_backup', { status, task: null, ...(status === 'Running' ? { startedAt: now } : {}), updatedAt: now });
    if (vm.status !== status) await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, status));
  }
}

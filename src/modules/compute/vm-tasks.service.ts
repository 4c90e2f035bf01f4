import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Applied, Failure, FailureKind, ResourceAdapter } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import { SnapshotError, VmHostError, type VmHosts, type VmSpec } from '../../integrations/datacenter/index.js';
import { applyVmAction } from './vm-action-tasks.js';
import type { BlockStorageService } from '../block-storage/index.js';
import type { PricingService } from '../pricing/index.js';
import type { TiersService } from '../tiers/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import { applyResize, openVmMeters, type VmResizedListener } from './vm-resize.apply.js';
import { VM_KIND, type VmStatus } from './compute.tables.js';
import { vmStateChanged } from './compute.events.js';
import type { WebhookEmitter } from '../webhooks/index.js';

/**
 * Who carries out a VM's `snapshot` and `restore` tasks (the snapshots module): outside any
 * transaction, answering what the conditional finish records. A refused restore is the VM's
 * failure (Error, retried by POST .../retry); a refused snapshot is the snapshot's, so its apply
 * answers normally.
 */
export interface VmSnapshotTasks {
  applyTask(vm: Vm, task: 'snapshot' | 'restore'): Promise<Applied>;
  /** Before any other task of the VM: a snapshot it was to take, or a restore it was to do, and never did ends failed (a suspension took the VM over). */
  abandoned(vm: Vm): Promise<void>;
}


/** Told when a VM became Deleted, in that transaction (private IPs, security groups, load balancers). */
export interface VmDeletedListener {
  vmDeleted(tx: Executor, vmId: number): Promise<void>;
}

/**
 * The VM adapter of the resource lifecycle (platform/lifecycle): carries out the VM's pending task
 * (`vms.task`) at the datacenter, outside any transaction; the lifecycle records it only while the
 * change it applied is still the latest. A datacenter refusal is final for a VM: it goes to Error
 * with the failed action, and POST .../retry runs it again. A VM pays from its first Running until
 * Deleted: the meters open in the transaction that finishes the create and close in the one that
 * finishes the delete.
 */
export class VmTasksService implements ResourceAdapter {
  readonly kind = VM_KIND;

  constructor(
    private readonly db: Database,
    private readonly repo: ComputeRepository,
    private readonly tiers: TiersService,
    private readonly blockStorage: BlockStorageService,
    private readonly pricing: PricingService,
    private readonly vmHosts: VmHosts,
    private readonly metering: Metering,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
    /** called once per VM that became Deleted, in that transaction (private IPs, groups, balancers: src/flows/vm-deleted.ts) */
    private readonly deleted: VmDeletedListener,
    /** the snapshots module (built after compute) */
    private readonly snapshotTasks: VmSnapshotTasks,
    /** the backups module: its meter is priced by the VM's tier (built after compute) */
    private readonly resized: VmResizedListener,
  ) {}

  classify(err: unknown): FailureKind | undefined {
    return err instanceof VmHostError || err instanceof SnapshotError ? 'final' : undefined;
  }

  async apply(vmId: number): Promise<Applied | void> {
    const vm = await this.repo.find(this.db, vmId);
    if (!vm || !vm.task) return;
    const task = vm.task;
    if (task !== 'snapshot') await this.snapshotTasks.abandoned(vm);
    const reference = `vm-${vm.id}`;
    const now = () => this.clock.now();
    switch (task) {
      case 'create': {
        const made = await this.vmHosts.createVm(await this.specOf(vm));
        return {
          record: async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, 'create', { status: 'Running', task: null, externalId: made.externalId, hypervisor: made.hypervisor, startedAt: now(), failedTask: null, updatedAt: now() });
            if (!done) return;
            await this.openMeters(tx, done);
            await this.changed(tx, vm, 'Running');
          },
        };
      }
      case 'start':
      case 'resume': {
        // resumed before the suspension's job made the machine it took over from a create: made now
        const made = task === 'resume' && vm.externalId === null ? await this.vmHosts.createVm(await this.specOf(vm)) : undefined;
        await this.vmHosts.startVm(made?.externalId ?? vm.externalId ?? reference);
        return {
          record: async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, task, {
              status: 'Running',
              task: null,
              startedAt: now(),
              failedTask: null,
              ...(made ? { externalId: made.externalId, hypervisor: made.hypervisor } : {}),
              ...(task === 'resume' ? { suspendReason: null, suspendedAt: null, suspendedFrom: null, resumeTask: null } : {}),
              updatedAt: now(),
            });
            if (!done) return;
            // suspended while it was being created: it pays from this first Running
            if (vm.startedAt === null) await this.openMeters(tx, done);
            await this.changed(tx, vm, 'Running');
          },
        };
      }
      case 'stop':
        await this.vmHosts.stopVm(vm.externalId ?? reference);
        return {
          record: async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, task, { status: 'Stopped', task: null, failedTask: null, updatedAt: now() });
            if (done) await this.changed(tx, vm, done.status);
          },
        };
      case 'suspend': {
        // suspended while it was being created: the create (made once, by our reference) is carried out, then the machine stopped
        const made = vm.externalId === null ? await this.vmHosts.createVm(await this.specOf(vm)) : undefined;
        await this.vmHosts.stopVm(made?.externalId ?? vm.externalId ?? reference);
        return {
          record: async (tx) => {
            await this.repo.finishTask(tx, vm.id, task, { task: null, failedTask: null, ...(made ? { externalId: made.externalId, hypervisor: made.hypervisor } : {}), updatedAt: now() });
          },
        };
      }
      case 'resize':
        return applyResize({ repo: this.repo, tiers: this.tiers, pricing: this.pricing, vmHosts: this.vmHosts, metering: this.metering, clock: this.clock, resized: this.resized }, vm);
      case 'delete':
        await this.vmHosts.deleteVm({ externalId: vm.externalId, reference });
        return {
          record: async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, 'delete', { status: 'Deleted', task: null, publicIp: null, deletedAt: now(), failedTask: null, updatedAt: now() });
            if (!done) return;
            await this.changed(tx, vm, 'Deleted');
            if (vm.blockStorageMachineId !== null && vm.blockStorageGb !== null) await this.blockStorage.release(tx, vm.blockStorageMachineId, vm.blockStorageGb);
            await this.metering.close('vm', vm.id, now(), { tx });
            await this.deleted.vmDeleted(tx, vm.id);
          },
        };
      case 'reboot':
      case 'reset':
      case 'rebuild':
      case 'rescue':
      case 'unrescue':
        return applyVmAction({ vmHosts: this.vmHosts, repo: this.repo, now, changed: (tx, v, to) => this.changed(tx, v, to) }, vm, task, await this.specOf(vm));
      case 'snapshot':
      case 'restore':
        return this.snapshotTasks.applyTask(vm, task);
      case 'restore_backup':
        // the backups module holds the VM and does the work (VmRestoreHolds); nothing for the lifecycle
        return;
    }
  }

  /** The machine as its create asked for it (a rebuild installs it again from the same spec). */
  private async specOf(vm: Vm): Promise<VmSpec> {
    return {
      reference: `vm-${vm.id}`,
      locationId: vm.locationId,
      cpu: vm.cpu,
      memoryMb: vm.memoryMb,
      diskGb: vm.diskGb,
      cpuLimit: (await this.tiers.find(vm.tierId))?.cpuLimit ?? 100,
      os: vm.os,
      publicIp: vm.publicIp,
      blockStorage: vm.blockStorageMachineId !== null && vm.blockStorageGb !== null ? { machineId: vm.blockStorageMachineId, sizeGb: vm.blockStorageGb } : null,
      sshKeys: vm.sshKeys.map((k) => k.publicKey),
      ...(vm.userData !== null ? { userData: vm.userData } : {}),
      ...(vm.sourceSnapshotId !== null && vm.rebuilds === 0 ? { fromSnapshot: { reference: `snap-${vm.sourceSnapshotId}` } } : {}),
    };
  }

  /** A refused task leaves the VM in Error with the action that failed (the message is the lifecycle's last error). */
  async failed(tx: Executor, vmId: number, _failure: Failure): Promise<void> {
    const vm = await this.repo.find(tx, vmId, { forUpdate: true });
    if (!vm || !vm.task) return;
    // the create of a VM suspended while it was being created was refused: an Error of its create, as without the suspension
    const neverMade = (vm.task === 'suspend' || vm.task === 'resume') && vm.externalId === null;
    const failedTask = neverMade ? 'create' : vm.task;
    const unsuspended = neverMade ? { suspendReason: null, suspendedAt: null, suspendedFrom: null, resumeTask: null } : {};
    if (await this.repo.finishTask(tx, vm.id, vm.task, { status: 'Error', task: null, failedTask, ...unsuspended, updatedAt: this.clock.now() })) await this.changed(tx, vm, 'Error');
  }

  /** The webhook event of a status change this job made (none when the status stays). */
  private async changed(tx: Executor, vm: Vm, to: VmStatus): Promise<void> {
    if (vm.status !== to) await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, to));
  }

  /** Its tier, its public IP and its volume, from the moment its create finished. */
  private async openMeters(tx: Executor, vm: Vm): Promise<void> {
    await openVmMeters(tx, { pricing: this.pricing, tiers: this.tiers, metering: this.metering }, vm, this.clock.now());
  }
}

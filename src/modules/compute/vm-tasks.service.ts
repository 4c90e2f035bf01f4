import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue/queue.js';
import type { Datacenter } from '../../integrations/datacenter/index.js';
import type { BlockStorageService } from '../block-storage/index.js';
import type { TiersService } from '../tiers/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import type { VmTask } from './compute.tables.js';
import type { VmTaskJob } from './compute.jobs.js';

/** A VM task still waiting this long gets its job queued again. */
export const STUCK_AFTER_MINUTES = 10;

/** Told when a VM became Deleted, in that transaction (security groups, load balancers re-sync). */
export interface VmDeletedListener {
  vmDeleted(tx: Executor, vmId: number): Promise<void>;
}

/** Told when a VM became Running for the first time (its create finished), in that transaction (metering). */
export interface VmCreatedListener {
  vmCreated(tx: Executor, vm: Vm): Promise<void>;
}

/**
 * The job side of compute: carries out a VM's queued task at the datacenter, outside any
 * transaction, then moves the VM with a conditional update on the task (a stale or repeated job
 * changes nothing). A DatacenterError leaves the VM in Error with the failed action.
 */
export class VmTasksService {
  private taskJob!: VmTaskJob;

  constructor(
    private readonly db: Database,
    private readonly repo: ComputeRepository,
    private readonly tiers: TiersService,
    private readonly blockStorage: BlockStorageService,
    private readonly datacenter: Datacenter,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  private readonly deletedListeners: VmDeletedListener[] = [];
  private readonly createdListeners: VmCreatedListener[] = [];

  /** Wired by the container: called once per VM whose create finished (Running), in that transaction (meters). */
  onCreated(listener: VmCreatedListener): void {
    this.createdListeners.push(listener);
  }

  /** Wired by the container: called once per VM that became Deleted, in that transaction (private IPs, groups, balancers). */
  onDeleted(listener: VmDeletedListener): void {
    this.deletedListeners.push(listener);
  }

  useTaskJob(job: VmTaskJob): void {
    this.taskJob = job;
  }

  private async enqueue(tx: Executor, vmId: number, task: VmTask): Promise<void> {
    await this.queue.send(this.taskJob, { vmId, task }, { tx });
  }

  /**
   * The safety net under "never stuck": a VM whose task has waited longer than `minutes` (its job
   * was lost, or used up its retries on something other than a datacenter error) gets its job
   * queued again. The tasks are idempotent, so a slow job that is still running does no harm.
   */
  async requeueStuck(minutes = STUCK_AFTER_MINUTES): Promise<number> {
    const now = this.clock.now();
    const list = await this.repo.stuck(this.db, new Date(now.getTime() - minutes * 60_000), 500);
    let n = 0;
    for (const vm of list) {
      if (!vm.task) continue;
      const task = vm.task;
      const queued = await this.db.transaction(async (tx) => {
        if (!(await this.repo.touch(tx, vm.id, task, now))) return false;
        await this.enqueue(tx, vm.id, task);
        return true;
      });
      if (queued) n++;
    }
    return n;
  }

  /** Runs the VM's queued task at the datacenter; a repeat or a stale job changes nothing. */
  async runTask(vmId: number, task: VmTask): Promise<void> {
    if (!Number.isInteger(vmId)) return; // a run by hand without a payload
    const vm = await this.repo.find(this.db, vmId);
    if (!vm || vm.task !== task) return;
    const reference = `vm-${vm.id}`;
    const now = () => this.clock.now();
    try {
      switch (task) {
        case 'create': {
          const made = await this.datacenter.createVm({
            reference,
            locationId: vm.locationId,
            cpu: vm.cpu,
            memoryMb: vm.memoryMb,
            diskGb: vm.diskGb,
            cpuLimit: (await this.tiers.find(vm.tierId))?.cpuLimit ?? 100,
            os: vm.os,
            publicIp: vm.publicIp,
            blockStorage: vm.blockStorageMachineId !== null && vm.blockStorageGb !== null ? { machineId: vm.blockStorageMachineId, sizeGb: vm.blockStorageGb } : null,
          });
          await this.db.transaction(async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, 'create', { status: 'Running', task: null, externalId: made.externalId, hypervisor: made.hypervisor, startedAt: now(), failedTask: null, lastError: null, updatedAt: now() });
            if (done) for (const l of this.createdListeners) await l.vmCreated(tx, done);
          });
          return;
        }
        case 'start':
        case 'resume':
          await this.datacenter.startVm(vm.externalId ?? reference);
          await this.repo.finishTask(this.db, vm.id, task, {
            status: 'Running',
            task: null,
            startedAt: now(),
            failedTask: null,
            lastError: null,
            ...(task === 'resume' ? { suspendReason: null, suspendedAt: null, suspendedFrom: null } : {}),
            updatedAt: now(),
          });
          return;
        case 'stop':
        case 'suspend':
          await this.datacenter.stopVm(vm.externalId ?? reference);
          await this.repo.finishTask(this.db, vm.id, task, { ...(task === 'stop' ? { status: 'Stopped' as const } : {}), task: null, failedTask: null, lastError: null, updatedAt: now() });
          return;
        case 'delete':
          await this.datacenter.deleteVm({ externalId: vm.externalId, reference });
          await this.db.transaction(async (tx) => {
            const done = await this.repo.finishTask(tx, vm.id, 'delete', { status: 'Deleted', task: null, publicIp: null, deletedAt: now(), failedTask: null, lastError: null, updatedAt: now() });
            if (done && vm.blockStorageMachineId !== null && vm.blockStorageGb !== null) await this.blockStorage.release(tx, vm.blockStorageMachineId, vm.blockStorageGb);
            if (done) for (const l of this.deletedListeners) await l.vmDeleted(tx, vm.id);
          });
          return;
      }
    } catch (err) {
      if (!(err instanceof Error) || err.name !== 'DatacenterError') throw err;
      await this.repo.finishTask(this.db, vm.id, task, { status: 'Error', task: null, failedTask: task, lastError: err.message.slice(0, 500), updatedAt: now() });
    }
  }
}

import { SnapshotError, type SnapshotDisk, type Snapshots } from '../../integrations/datacenter/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Applied, FailureKind, ResourceAdapter } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import type { ComputeRepository, Vm, VmSnapshotTasks, VmStatus } from '../compute/index.js';
import type { PricingService } from '../pricing/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { componentKey } from '../pricing/index.js';
import { snapshotCompleted, snapshotFailed, snapshotRestoreFailed } from './snapshots.events.js';
import type { Snapshot, SnapshotsRepository } from './snapshots.repository.js';
import { SNAPSHOT_KIND } from './snapshots.tables.js';

const GIB = 1024 ** 3;

/** The datacenter's name of a snapshot. */
export const snapshotReference = (id: number) => `snap-${id}`;

/** What a snapshot holds, as the datacenter's disks. */
export const disksOf = (s: Pick<Snapshot, 'includeVolume'>): SnapshotDisk[] => (s.includeVolume ? ['boot', 'volume'] : ['boot']);

/** Billed GB of a stored size: whole GB, rounded up, at least 1. */
export function billedGb(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / GIB));
}

/**
 * The datacenter side of snapshots, outside any transaction; what it did is recorded in the
 * lifecycle's conditional finish:
 * - the VM's `snapshot` task takes the snapshot: Available (its meter opens at that instant,
 *   `snapshot.completed`), or Failed when the datacenter refuses (`snapshot.failed`; the VM is
 *   untouched and its task ends);
 * - the VM's `restore` task writes the snapshot back onto the VM (a refusal is the VM's Error,
 *   retried with POST /api/compute/vm/{id}/retry); a restore whose VM another task took over
 *   (a suspension) still ends: done when the datacenter wrote the disks, failed with the reason
 *   (`snapshot.restore_failed`) otherwise;
 * - a snapshot's own change (kind `snapshot`) deletes it at the datacenter, then Deleted and its
 *   meter closed; a refusal is tried again by itself.
 */
export class SnapshotTasksService implements VmSnapshotTasks, ResourceAdapter {
  readonly kind = SNAPSHOT_KIND;

  constructor(
    private readonly db: Database,
    private readonly repo: SnapshotsRepository,
    private readonly vms: ComputeRepository,
    private readonly snapshots: Snapshots,
    private readonly pricing: PricingService,
    private readonly metering: Metering,
    private readonly webhooks: WebhookEmitter,
    private readonly clock: Clock,
  ) {}

  /** The VM's snapshot or restore task. */
  applyTask(vm: Vm, task: 'snapshot' | 'restore'): Promise<Applied> {
    return task === 'snapshot' ? this.take(vm) : this.restore(vm);
  }

  /** A snapshot's own change: its delete. */
  apply(id: number): Promise<Applied | void> {
    return this.deleteAt(id);
  }

  classify(err: unknown): FailureKind | undefined {
    return err instanceof SnapshotError ? 'retry' : undefined;
  }

  private machineOf(vm: Vm): string {
    return vm.externalId ?? `vm-${vm.id}`;
  }

  private endTask(tx: Executor, vm: Vm, task: 'snapshot' | 'restore') {
    return this.vms.finishTask(tx, vm.id, task, { task: null, updatedAt: this.clock.now() });
  }

  /**
   * Takes the snapshot and records its outcome in a transaction of its own, then answers the end
   * of the VM's task for the conditional finish. The snapshot's outcome does not wait for that
   * finish: a suspension that took the VM over meanwhile drops the VM's record (its task is
   * `suspend` now), and the snapshot must still end Available (the copy exists) or Failed.
   */
  private async take(vm: Vm): Promise<Applied> {
    const s = await this.repo.creatingOf(this.db, vm.id);
    if (s) await this.settle(vm, s);
    return { record: async (tx) => void (await this.endTask(tx, vm, 'snapshot')) };
  }

  private async settle(vm: Vm, s: Snapshot): Promise<void> {
    let taken;
    try {
      taken = await this.snapshots.takeSnapshot({ reference: snapshotReference(s.id), machine: this.machineOf(vm), disks: disksOf(s) });
    } catch (err) {
      if (!(err instanceof SnapshotError)) throw err;
      await this.fail(s, err.message);
      return;
    }
    const sizeBytes = taken.disks.reduce((n, d) => n + d.storedBytes, 0);
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const done = await this.repo.transition(tx, s.id, 'Creating', { status: 'Available', consistency: taken.consistency, sizeBytes, sizeGb: billedGb(sizeBytes), completedAt: now, updatedAt: now, error: null });
      if (!done) return;
      await this.openMeter(tx, done, now);
      await this.webhooks.emit(tx, snapshotCompleted(done));
    });
  }

  /** Creating → Failed with the reason the customer reads (`snapshot.failed`). */
  private async fail(s: Snapshot, reason: string): Promise<void> {
    const message = reason.slice(0, 500);
    await this.db.transaction(async (tx) => {
      const failed = await this.repo.transition(tx, s.id, 'Creating', { status: 'Failed', error: message, updatedAt: this.clock.now() });
      if (failed) await this.webhooks.emit(tx, snapshotFailed(failed, message));
    });
  }

  /**
   * Called before any other task of the VM is carried out. A snapshot still Creating was never
   * taken, because another task took the VM over before the snapshot task ran (a suspension of
   * the account sets the task `suspend` on every VM, whatever it was doing): it ends Failed with
   * the reason, so it never stays Creating; the customer deletes it or takes another. A restore
   * still asked for was never carried out for the same cause: it ends failed with the reason
   * (`snapshot.restore_failed`), the VM's disks untouched, so the snapshot is no longer in use.
   */
  async abandoned(vm: Vm): Promise<void> {
    if (vm.task !== 'snapshot' && (await this.repo.creatingOf(this.db, vm.id))) await this.abandonSnapshot(vm);
    if (vm.task !== 'restore' && (await this.repo.restoreOf(this.db, vm.id))) await this.abandonRestore(vm);
  }

  private async abandonSnapshot(vm: Vm): Promise<void> {
    await this.db.transaction(async (tx) => {
      const now = await this.vms.find(tx, vm.id, { forUpdate: true });
      if (!now || now.task === 'snapshot') return;
      const s = await this.repo.creatingOf(tx, vm.id);
      if (!s) return;
      const reason = now.task === 'suspend' || now.status === 'Suspended' ? 'the account was suspended before the snapshot was taken' : 'the VM was changed before the snapshot was taken';
      const failed = await this.repo.transition(tx, s.id, 'Creating', { status: 'Failed', error: reason, updatedAt: this.clock.now() });
      if (failed) await this.webhooks.emit(tx, snapshotFailed(failed, reason));
    });
  }

  private async abandonRestore(vm: Vm): Promise<void> {
    await this.db.transaction(async (tx) => {
      const now = await this.vms.find(tx, vm.id, { forUpdate: true });
      if (!now || now.task === 'restore') return;
      const reason =
        now.task === 'suspend' || now.status === 'Suspended' ? 'the account was suspended before the restore ran' : now.task === 'delete' ? 'the VM was deleted before the restore ran' : 'the VM was changed before the restore ran';
      await this.endRestore(tx, vm, reason);
    });
  }

  /** The asked restore ends failed: dropped, with `snapshot.restore_failed` carrying the reason. */
  private async endRestore(tx: Executor, vm: Vm, reason: string): Promise<void> {
    const asked = await this.repo.restoreOf(tx, vm.id);
    if (!asked) return;
    await this.repo.dropRestore(tx, vm.id);
    const s = await this.repo.find(tx, asked.snapshotId);
    if (s) await this.webhooks.emit(tx, snapshotRestoreFailed(s, vm.id, reason.slice(0, 500)));
  }

  /** Its GB at the location's snapshot price, from `at` (as a volume's GB at its storage tier's). */
  private async openMeter(tx: Executor, s: Snapshot, at: Date): Promise<void> {
    const component = await this.pricing.componentByCode('snapshot_gb', tx);
    await this.metering.open({ customerId: s.customerId, resourceType: 'snapshot', resourceId: s.id, description: `Snapshot ${s.name} ${s.sizeGb} GB`, priceKey: componentKey(component.id), locationId: s.locationId, quantity: s.sizeGb!, at }, tx);
  }

  private async restore(vm: Vm): Promise<Applied> {
    const asked = await this.repo.restoreOf(this.db, vm.id);
    const s = asked ? await this.repo.find(this.db, asked.snapshotId) : undefined;
    if (!asked || !s) return { record: async (tx) => void (await this.endTask(tx, vm, 'restore')) };
    try {
      await this.snapshots.restoreSnapshot({ reference: snapshotReference(s.id), machine: this.machineOf(vm), disks: disksOf(s), start: asked.start });
    } catch (err) {
      // a refusal is the VM's (Error, retried) unless another task took the VM over meanwhile
      if (err instanceof SnapshotError && (await this.endIfTakenOver(vm, err.message))) return { record: async () => undefined };
      throw err;
    }
    // done at the datacenter: no longer asked for, whether or not the VM's task is still this restore
    await this.repo.dropRestore(this.db, vm.id);
    const to: VmStatus = asked.start ? 'Running' : 'Stopped';
    return {
      record: async (tx) => {
        const now = this.clock.now();
        const done = await this.vms.finishTask(tx, vm.id, 'restore', { status: to, task: null, failedTask: null, ...(to === 'Running' && vm.status !== 'Running' ? { startedAt: now } : {}), updatedAt: now });
        if (!done) return;
        await this.repo.dropRestore(tx, vm.id);
        if (vm.status !== to) await this.webhooks.emit(tx, { customerId: vm.customerId, type: 'vm.state_changed', data: { vm_id: vm.id, name: vm.name, from: vm.status, to } });
      },
    };
  }

  /** The restore failed at the datacenter while a suspension (or another task) took the VM over: it ends failed with the datacenter's reason. */
  private endIfTakenOver(vm: Vm, reason: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const now = await this.vms.find(tx, vm.id, { forUpdate: true });
      if (now && now.task === 'restore') return false;
      await this.endRestore(tx, vm, reason);
      return true;
    });
  }

  private async deleteAt(id: number): Promise<Applied | void> {
    const s = await this.repo.find(this.db, id);
    if (!s || s.status !== 'Deleting') return;
    await this.snapshots.deleteSnapshot(snapshotReference(s.id), s.locationId);
    return {
      record: async (tx) => {
        const now = this.clock.now();
        const done = await this.repo.transition(tx, id, 'Deleting', { status: 'Deleted', deletedAt: now, updatedAt: now });
        if (done) await this.metering.close('snapshot', id, now, { tx });
      },
    };
  }
}

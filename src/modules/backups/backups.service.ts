import type { Actor, AuditEntry } from '../../platform/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Metering } from '../../platform/metering.js';
import { dec, moneyString } from '../../platform/money.js';
import type { JobDefinition, JobQueue } from '../../platform/queue/queue.js';
import type { BlobStore } from '../../integrations/object-storage/index.js';
import type { ComputeService, Vm, VmRestoreHolds } from '../compute/index.js';
import { tierKey, type PricingService } from '../pricing/index.js';
import type { TiersService } from '../tiers/index.js';
import { nextSlot } from './backup-schedule.js';
import { manifestKey } from './chunk-store.js';
import type { Backup, BackupPlan, BackupPolicyRow, BackupsRepository, Restore } from './backups.repository.js';

/** The audit module's recorder, as this module needs it. */
export interface BackupAuditRecorder {
  record(tx: Executor, entry: AuditEntry): Promise<void>;
}

/** The notifications module, as staff restores need it. */
export interface BackupNotifier {
  notify(customerId: number, kind: 'VM_STAFF_ACTION', content: { title: string; body: string; reference: { type: string; id: string } }, tx: Executor): Promise<unknown>;
}

export interface PlanInput {
  enabled: boolean;
  frequency?: 'daily' | 'weekly' | undefined;
  hour?: number | undefined;
  weekday?: number | null | undefined;
}

/** A VM's plan as its owner sees it: its times, its price, what staff set. */
export interface PlanView {
  vm_id: number;
  enabled: boolean;
  frequency: 'daily' | 'weekly';
  hour: number;
  weekday: number | null;
  next_run_at: string | null;
  keep_last: number;
  price_share_percent: string;
  monthly_price: string;
  hourly_price: string;
}

export const BACKUP_RESOURCE = 'vm_backup';
const GIB = 1024 ** 3;

/** The work job: one attempt of a backup or a restore (BackupWorkService runs it). */
export type WorkPayload = { kind: 'backup' | 'restore'; id: string };

/**
 * What customers and staff ask of backups: the plan of a VM (its meter opens and closes with it),
 * a backup now, a restore onto the same VM or into a new one, the staff's policy and usage view.
 * Every request writes its intent and queues the work in its transaction; the work is
 * BackupWorkService's.
 */
export class BackupsService {
  constructor(
    private readonly db: Database,
    private readonly repo: BackupsRepository,
    private readonly clock: Clock,
    private readonly queue: JobQueue,
    private readonly workJob: () => JobDefinition<WorkPayload>,
    private readonly holds: VmRestoreHolds,
    private readonly compute: Pick<ComputeService, 'create'>,
    private readonly tiers: Pick<TiersService, 'find'>,
    private readonly pricing: Pick<PricingService, 'priceAt'>,
    private readonly metering: Metering,
    private readonly audit: BackupAuditRecorder,
    private readonly notifications: BackupNotifier,
    /** the platform's bucket of backups: a deleted backup's manifest goes at once */
    private readonly store: Pick<BlobStore, 'delete'>,
  ) {}

  policy(): Promise<BackupPolicyRow> {
    return this.repo.policy(this.db);
  }

  private async vmOf(ex: Executor, customerId: number | undefined, vmId: number): Promise<Vm> {
    const vm = await this.holds.find(ex, vmId, customerId);
    if (!vm) throw new NotFoundError('VM');
    return vm;
  }

  private async view(ex: Executor, vm: Vm, plan: BackupPlan | undefined, policy: BackupPolicyRow): Promise<PlanView> {
    const price = await this.pricing.priceAt(tierKey(vm.tierId), vm.locationId, this.clock.now(), ex);
    const share = dec(policy.priceSharePercent).div(100);
    const p = { frequency: (plan?.frequency ?? 'daily') as 'daily' | 'weekly', hour: plan?.hour ?? 2, weekday: plan?.weekday ?? null };
    return {
      vm_id: vm.id,
      enabled: plan?.enabled ?? false,
      ...p,
      next_run_at: plan?.enabled ? nextSlot(p, this.clock.now()).toISOString() : null,
      keep_last: policy.keepLast,
      price_share_percent: policy.priceSharePercent,
      monthly_price: moneyString(dec(price?.monthlyPrice ?? 0).times(share)),
      hourly_price: dec(price?.hourlyPrice ?? 0).times(share).toDecimalPlaces(6).toFixed(6),
    };
  }

  async plan(customerId: number, vmId: number): Promise<PlanView> {
    const vm = await this.vmOf(this.db, customerId, vmId);
    return this.view(this.db, vm, await this.repo.plan(this.db, vmId), await this.repo.policy(this.db));
  }

  /** The meter of a VM's backups: the share of its tier's price, as a quantity of that price. */
  private async openMeter(tx: Executor, vm: Vm, policy: BackupPolicyRow, at: Date): Promise<void> {
    await this.metering.open(
      {
        customerId: vm.customerId,
        resourceType: BACKUP_RESOURCE,
        resourceId: vm.id,
        description: `Backups of VM ${vm.name} (${policy.priceSharePercent}% of its price)`,
        priceKey: tierKey(vm.tierId),
        locationId: vm.locationId,
        quantity: dec(policy.priceSharePercent).div(100).toFixed(),
        at,
      },
      tx,
    );
  }

  /** PUT .../backups/plan: switches backups on or off and sets the window; the meter follows. */
  setPlan(customerId: number, vmId: number, input: PlanInput): Promise<PlanView> {
    const frequency = input.frequency ?? 'daily';
    if (frequency === 'weekly' && (input.weekday === undefined || input.weekday === null)) {
      throw new BadRequestError('VALIDATION_FAILED', 'A weekly plan needs its weekday', [{ field: 'weekday', message: 'required when frequency is weekly' }]);
    }
    if (frequency === 'daily' && input.weekday !== undefined && input.weekday !== null) {
      throw new BadRequestError('VALIDATION_FAILED', 'A daily plan has no weekday', [{ field: 'weekday', message: 'only with frequency weekly' }]);
    }
    return this.db.transaction(async (tx) => {
      const vm = await this.vmOf(tx, customerId, vmId);
      if (vm.status === 'Deleting') throw new ConflictError('A Deleting VM takes no backups', 'INVALID_VM_STATE');
      const policy = await this.repo.policy(tx);
      const before = await this.repo.plan(tx, vmId, true);
      const now = this.clock.now();
      if (input.enabled && !before?.enabled && vm.status === 'Suspended') throw new ConflictError('A Suspended VM cannot have backups switched on', 'VM_SUSPENDED');
      const plan = await this.repo.savePlan(tx, {
        vmId,
        customerId: vm.customerId,
        enabled: input.enabled,
        frequency,
        hour: input.hour ?? before?.hour ?? 2,
        weekday: frequency === 'weekly' ? (input.weekday ?? null) : null,
        enabledAt: input.enabled ? (before?.enabled ? before.enabledAt : now) : null,
        updatedAt: now,
      });
      if (input.enabled && !before?.enabled) await this.openMeter(tx, vm, policy, now);
      if (!input.enabled && before?.enabled) await this.metering.close(BACKUP_RESOURCE, vm.id, now, { tx });
      return this.view(tx, vm, plan, policy);
    });
  }

  async list(customerId: number, vmId: number): Promise<{ backups: Backup[]; restores: Restore[] }> {
    await this.vmOf(this.db, customerId, vmId);
    return { backups: await this.repo.backupsOfVm(this.db, vmId), restores: await this.repo.restoresOfVm(this.db, vmId) };
  }

  /** Every backup of the customer, those of deleted VMs too (a new VM can be made from them). */
  listAll(customerId: number): Promise<Backup[]> {
    return this.repo.backupsOfCustomer(this.db, customerId);
  }

  async get(customerId: number, backupId: string): Promise<Backup> {
    const b = await this.repo.backup(this.db, backupId);
    if (!b || b.customerId !== customerId || b.status === 'deleted') throw new NotFoundError('Backup');
    return b;
  }

  private queueWork(tx: Executor, payload: WorkPayload): Promise<unknown> {
    return this.queue.send(this.workJob(), payload, { tx });
  }

  /** POST .../backups: a backup now, besides the plan's (backups must be on). */
  backupNow(customerId: number, vmId: number): Promise<Backup> {
    return this.db.transaction(async (tx) => {
      const vm = await this.vmOf(tx, customerId, vmId);
      const plan = await this.repo.plan(tx, vmId);
      if (!plan?.enabled) throw new ConflictError('Switch backups on for this VM first', 'BACKUPS_OFF');
      if (vm.status !== 'Running' && vm.status !== 'Stopped') throw new ConflictError(`A ${vm.status} VM cannot be backed up`, vm.status === 'Suspended' ? 'VM_SUSPENDED' : 'INVALID_VM_STATE');
      const b = (await this.repo.insertBackup(tx, { vmId, customerId: vm.customerId, locationId: vm.locationId, vmName: vm.name, trigger: 'manual', createdAt: this.clock.now(), nextAttemptAt: this.clock.now() }))!;
      await this.queueWork(tx, { kind: 'backup', id: b.id });
      return b;
    });
  }

  /** A completed backup (of the customer when given). */
  private async completed(tx: Executor, backupId: string, customerId?: number, forUpdate = false): Promise<Backup> {
    // locked in a transaction: a delete of the backup waits for the restore row, or the restore for the delete
    const b = await this.repo.backup(tx, backupId, forUpdate);
    if (!b || (customerId !== undefined && b.customerId !== customerId) || b.status === 'deleted') throw new NotFoundError('Backup');
    if (b.status !== 'completed') throw new ConflictError('Only a completed backup can be restored', 'BACKUP_NOT_READY');
    return b;
  }

  /**
   * POST .../backups/{id}/restore: the VM's disk is rewritten from the backup (stopped, written,
   * started). The VM is held at once (409 VM_BUSY while another change is in flight; 402 for a
   * stopped VM of an account that may not start anything billable).
   */
  restore(customerId: number, vmId: number, backupId: string): Promise<Restore> {
    return this.db.transaction(async (tx) => {
      const b = await this.completed(tx, backupId, customerId, true);
      if (b.vmId !== vmId) throw new NotFoundError('Backup');
      await this.holds.claim(tx, vmId, { customerId });
      const r = await this.repo.insertRestore(tx, { backupId, customerId, vmId, kind: 'same', status: 'pending', createdAt: this.clock.now(), nextAttemptAt: this.clock.now() });
      await this.queueWork(tx, { kind: 'restore', id: r.id });
      return r;
    });
  }

  /**
   * POST /api/compute/backups/{id}/vm: a new VM (the customer's create, with its quota, price and
   * billable rules) whose disk is written from the backup once it runs. Its tier's disk must hold
   * the backup; its location is the backup's (any hypervisor there).
   */
  async restoreToNew(customerId: number, backupId: string, input: { name: string; tier_id: number; ssh_key_ids?: number[] | undefined }): Promise<{ restore: Restore; vmId: number }> {
    const b = await this.completed(this.db, backupId, customerId);
    const tier = await this.tiers.find(input.tier_id);
    if (tier && tier.diskGb * GIB < (b.diskBytes ?? 0)) {
      throw new BadRequestError('DISK_TOO_SMALL', `This tier's disk (${tier.diskGb} GB) is smaller than the backup (${Math.ceil((b.diskBytes ?? 0) / GIB)} GB)`, [{ field: 'tier_id', message: 'disk smaller than the backup' }]);
    }
    // the create is compute's own transaction: a restore row follows it; a crash in between leaves a plain new VM
    // the backed-up VM's OS: the new machine boots the disk it restores the way the old one did
    const os = await this.repo.osOf(this.db, b.vmId);
    const vm = await this.compute.create(customerId, { name: input.name, location_id: b.locationId, tier_id: input.tier_id, ...(os ? { os } : {}), ...(input.ssh_key_ids ? { ssh_key_ids: input.ssh_key_ids } : {}) });
    const restore = await this.db.transaction(async (tx) => {
      // the backup deleted while the VM was being made: the restore is recorded as failed (the VM stays, as made)
      const still = await this.repo.backup(tx, backupId, true);
      if (still?.status !== 'completed') {
        return this.repo.insertRestore(tx, { backupId, customerId, vmId: vm.id, kind: 'new', status: 'failed', reason: 'the backup was deleted before the new VM was made', createdAt: this.clock.now(), completedAt: this.clock.now() });
      }
      const r = await this.repo.insertRestore(tx, { backupId, customerId, vmId: vm.id, kind: 'new', status: 'waiting', createdAt: this.clock.now(), nextAttemptAt: this.clock.now() });
      await this.queueWork(tx, { kind: 'restore', id: r.id });
      return r;
    });
    return { restore, vmId: vm.id };
  }

  /**
   * DELETE /api/compute/backups/{id}: the customer deletes one backup (of a VM that exists or is
   * gone). Refused (409) while it is being made (BACKUP_IN_PROGRESS) or a restore of it is under
   * way (BACKUP_IN_USE). Its row becomes `deleted` and its manifest is removed at once; its chunks
   * that no other backup shares are freed by the chunk sweep.
   */
  async deleteBackup(customerId: number, backupId: string): Promise<Backup> {
    const deleted = await this.db.transaction(async (tx) => {
      const b = await this.repo.backup(tx, backupId, true);
      if (!b || b.customerId !== customerId || b.status === 'deleted') throw new NotFoundError('Backup');
      if (b.status === 'pending' || b.status === 'running') throw new ConflictError('The backup is still being made; delete it once it is done', 'BACKUP_IN_PROGRESS');
      if (await this.repo.restoreUnderway(tx, backupId)) throw new ConflictError('A VM is being restored from this backup', 'BACKUP_IN_USE');
      return (await this.repo.updateBackup(tx, backupId, { status: 'deleted', leaseUntil: null }))!;
    });
    // a manifest left by a failure here is removed by the chunk sweep (it removes those of deleted backups)
    await this.store.delete(manifestKey(backupId)).catch(() => undefined);
    return deleted;
  }

  async restoreOf(customerId: number, restoreId: string): Promise<Restore> {
    const r = await this.repo.restore(this.db, restoreId);
    if (!r || r.customerId !== customerId) throw new NotFoundError('Restore');
    return r;
  }

  // ---- staff

  /** Staff restore a customer's VM from one of its backups: audited, the customer told in the app. */
  staffRestore(actor: Actor & { id: number }, backupId: string, vmId?: number): Promise<Restore> {
    return this.db.transaction(async (tx) => {
      const b = await this.completed(tx, backupId, undefined, true);
      const target = vmId ?? b.vmId;
      const vm = await this.holds.claim(tx, target);
      if (vm.customerId !== b.customerId) throw new NotFoundError('VM');
      const r = await this.repo.insertRestore(tx, { backupId, customerId: b.customerId, vmId: target, kind: 'same', status: 'pending', adminId: actor.id, createdAt: this.clock.now(), nextAttemptAt: this.clock.now() });
      await this.queueWork(tx, { kind: 'restore', id: r.id });
      await this.audit.record(tx, { actor, action: 'backup.staff_restore', targetType: 'vm', targetId: target, after: { backup_id: b.id, restore_id: r.id, customer_id: b.customerId } });
      const taken = b.completedAt?.toISOString() ?? b.createdAt.toISOString();
      await this.notifications.notify(
        b.customerId,
        'VM_STAFF_ACTION',
        { title: `Your VM ${vm.name} is being restored by our team`, body: `Our team is restoring your VM ${vm.name} from its backup of ${taken}: it is stopped, its disk rewritten from the backup, and started again. What was written since that backup is lost. If you did not ask for this, open a support ticket.`, reference: { type: 'backup_restore', id: r.id } },
        tx,
      );
      return r;
    });
  }

  /** Staff: a VM's backups, or a customer's, or the newest of all. */
  staffList(f: { vmId?: number | undefined; customerId?: number | undefined }): Promise<Backup[]> {
    return this.repo.staffList(this.db, f);
  }

  usage(f: { customerId?: number | undefined; locationId?: number | undefined }) {
    return this.repo.usage(this.db, f);
  }

  /** Staff set the price share and the number kept; open meters switch to the new share from now. */
  updatePolicy(actor: Actor, input: { price_share_percent?: number | undefined; keep_last?: number | undefined }): Promise<BackupPolicyRow> {
    return this.db.transaction(async (tx) => {
      const before = await this.repo.policy(tx, true);
      const now = this.clock.now();
      const row = await this.repo.updatePolicy(tx, {
        ...(input.price_share_percent !== undefined ? { priceSharePercent: dec(input.price_share_percent).toFixed(2) } : {}),
        ...(input.keep_last !== undefined ? { keepLast: input.keep_last } : {}),
        updatedAt: now,
      });
      if (!dec(row.priceSharePercent).eq(before.priceSharePercent)) {
        for (const plan of await this.repo.enabledPlans(tx)) {
          const vm = await this.holds.find(tx, plan.vmId);
          if (!vm) continue;
          await this.metering.close(BACKUP_RESOURCE, vm.id, now, { tx });
          await this.openMeter(tx, vm, row, now);
        }
      }
      await this.audit.record(tx, { actor, action: 'backup.policy_updated', targetType: 'backup_policy', targetId: 1, before: { price_share_percent: before.priceSharePercent, keep_last: before.keepLast }, after: { price_share_percent: row.priceSharePercent, keep_last: row.keepLast } });
      return row;
    });
  }

  /**
   * A VM took its new tier (compute's resize finish, in its transaction): the backup meter, priced
   * by the VM's tier, closes at that instant and opens on the new tier's price, so the hour of the
   * resize is charged as two parts, each to the second, like the VM's own meters.
   */
  async vmResized(tx: Executor, vm: Vm, at: Date): Promise<void> {
    const plan = await this.repo.plan(tx, vm.id, true);
    if (!plan?.enabled) return;
    const closed = await this.metering.close(BACKUP_RESOURCE, vm.id, at, { tx });
    if (closed > 0) await this.openMeter(tx, vm, await this.repo.policy(tx), at);
  }

  /** A VM became Deleted (src/flows/vm-deleted.ts): its plan ends and its meter closes; its backups stay. */
  async vmDeleted(tx: Executor, vmId: number): Promise<void> {
    const plan = await this.repo.plan(tx, vmId, true);
    if (!plan?.enabled) return;
    const now = this.clock.now();
    await this.repo.savePlan(tx, { ...plan, enabled: false, enabledAt: null, updatedAt: now });
    await this.metering.close(BACKUP_RESOURCE, vmId, now, { tx });
  }
}

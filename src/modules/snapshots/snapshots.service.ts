import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, QuotaExceededError } from '../../platform/errors.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import type { Lifecycle } from '../../platform/lifecycle/index.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import type { BillableStartRule } from '../charging/index.js';
import type { ComputeRepository, ComputeService, StaffActor, Vm, VmActionsService, VmWithSync } from '../compute/index.js';
import { customerQuotaLock } from '../customers/index.js';
import type { Snapshot, SnapshotFilter, SnapshotsRepository } from './snapshots.repository.js';
import { SNAPSHOT_KIND } from './snapshots.tables.js';

/** The audit recorder and the customer's notifications, as staff restores need them. */
export interface SnapshotStaffPorts {
  audit: { record(tx: Executor, entry: { actor: { type: 'admin'; id: number; ip?: string | undefined; userAgent?: string | undefined }; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown }): Promise<void> };
  notifications: { notify(customerId: number, kind: 'VM_STAFF_ACTION', content: { title: string; body: string; reference: { type: string; id: string } }, tx: Executor): Promise<unknown> };
  mailer: Pick<Mailer, 'queueMail'>;
}

/** A snapshot with whether a restore of it is under way (the answers show it). */
export interface SnapshotWithState extends Snapshot {
  restoring: boolean;
}

/**
 * VM snapshots (docs/api.md, "Snapshots"). Taking one and restoring one are tasks of the VM
 * (VmActionsService.beginTask: one change of a VM at a time, 409 VM_BUSY), carried out by
 * SnapshotTasksService; deleting one is the snapshot's own change in the resource lifecycle.
 * A snapshot is billed per GB-month of its stored size from the moment it is Available until it
 * is Deleted; creating one needs an account that may start something billable (402) and room in
 * the customer's snapshot_limit (409 QUOTA_EXCEEDED).
 */
export class SnapshotsService {
  constructor(
    private readonly db: Database,
    private readonly repo: SnapshotsRepository,
    private readonly vms: ComputeRepository,
    private readonly actions: VmActionsService,
    private readonly lifecycle: Lifecycle,
    private readonly billable: BillableStartRule,
    private readonly clock: Clock,
    private readonly staff: SnapshotStaffPorts,
    private readonly compute: ComputeService,
  ) {}

  private async withState(rows: Snapshot[], ex: Executor): Promise<SnapshotWithState[]> {
    const restoring = await this.repo.restoringAmong(ex, rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, restoring: restoring.has(r.id) }));
  }

  private async one(row: Snapshot, ex: Executor): Promise<SnapshotWithState> {
    return (await this.withState([row], ex))[0]!;
  }

  /** The customer's snapshot (another customer's, or a Deleted one, is a 404). */
  private async load(ex: Executor, id: number, customerId: number | undefined, forUpdate = false): Promise<Snapshot> {
    const s = await this.repo.find(ex, id, { forUpdate });
    if (!s || (customerId !== undefined && s.customerId !== customerId) || s.status === 'Deleted') throw new NotFoundError('Snapshot');
    return s;
  }

  /** A customer's snapshots (customerId), or staff's view of anyone's (undefined: the filter's customer, if any). */
  async list(customerId: number | undefined, filter: SnapshotFilter, p: PageRequest): Promise<Page<SnapshotWithState>> {
    if (customerId !== undefined && filter.vmId !== undefined) {
      const vm = await this.vms.find(this.db, filter.vmId);
      if (!vm || vm.customerId !== customerId) throw new NotFoundError('VM');
    }
    const page = await this.repo.list(this.db, { ...filter, customerId: customerId ?? filter.customerId }, { limit: p.limit, offset: offsetOf(p) });
    return { items: await this.withState(page.items, this.db), total: page.total };
  }

  async get(customerId: number | undefined, id: number): Promise<SnapshotWithState> {
    return this.one(await this.load(this.db, id, customerId), this.db);
  }

  /** Snapshots the VM's boot disk (and its volume when asked), Running or Stopped. */
  async create(customerId: number, vmId: number, input: { name: string; include_volume?: boolean | undefined }): Promise<SnapshotWithState> {
    return this.db.transaction(async (tx) => {
      const customer = await customerQuotaLock.lock(tx, customerId);
      if (!customer) throw new NotFoundError('Customer');
      const vm0 = await this.vms.find(tx, vmId);
      if (!vm0 || vm0.customerId !== customerId || vm0.status === 'Deleted') throw new NotFoundError('VM');
      const kept = await this.repo.countKept(tx, customerId);
      if (kept >= customer.snapshotLimit) throw new QuotaExceededError(`Snapshot limit reached (${customer.snapshotLimit})`);
      await this.billable.assertMayStart(tx, customerId);
      const includeVolume = input.include_volume === true;
      if (includeVolume && vm0.blockStorageGb === null) throw new ConflictError('The VM has no volume to include', 'NO_VOLUME');
      const vm = await this.actions.beginTask(tx, vmId, customerId, 'snapshot', 'be snapshotted');
      const now = this.clock.now();
      const row = await this.repo.insert(tx, {
        customerId,
        vmId: vm.id,
        locationId: vm.locationId,
        name: input.name.trim(),
        status: 'Creating',
        includeVolume,
        os: vm.os,
        diskGb: vm.diskGb,
        volumeGb: includeVolume ? vm.blockStorageGb : null,
        createdAt: now,
        updatedAt: now,
      });
      return this.one(row, tx);
    });
  }

  async rename(customerId: number, id: number, name: string): Promise<SnapshotWithState> {
    return this.db.transaction(async (tx) => {
      const s = await this.load(tx, id, customerId, true);
      if (s.status === 'Deleting') throw new ConflictError('A Deleting snapshot cannot be renamed', 'INVALID_SNAPSHOT_STATE');
      const row = (await this.repo.update(tx, id, { name: name.trim(), updatedAt: this.clock.now() }))!;
      return this.one(row, tx);
    });
  }

  /** Available or Failed → Deleting; the lifecycle removes it at the datacenter → Deleted (its meter closes then). */
  async delete(customerId: number, id: number): Promise<SnapshotWithState> {
    return this.db.transaction(async (tx) => {
      const s = await this.load(tx, id, customerId, true);
      if (s.status === 'Deleting') return this.one(s, tx);
      if (s.status === 'Creating') throw new ConflictError('The snapshot is still being taken; delete it once it is done', 'INVALID_SNAPSHOT_STATE');
      if ((await this.repo.restoring(tx, id)) || (await this.repo.creatingFrom(tx, id))) throw new ConflictError('A VM is being restored or created from this snapshot', 'SNAPSHOT_IN_USE');
      const row = (await this.repo.update(tx, id, { status: 'Deleting', updatedAt: this.clock.now() }))!;
      await this.lifecycle.changed(tx, SNAPSHOT_KIND, id);
      return this.one(row, tx);
    });
  }

  /**
   * A new VM whose boot disk is a copy of the snapshot (grown to the tier's disk), in the snapshot's
   * location, on any tier offered there whose disk is at least the snapshot's (400 DISK_TOO_SMALL);
   * otherwise a create like any other (limits, balance, addresses). A snapshot that holds a volume
   * gives the new VM a volume of its size on the storage tier of the VM it was taken of, written
   * from the snapshot (the volume limit and price apply as to any volume). The datacenter places
   * the new VM on the hypervisor that keeps the snapshot.
   */
  async createVm(customerId: number, id: number, input: { name: string; tier_id: number; ssh_key_ids?: number[] | undefined }): Promise<VmWithSync> {
    const s = await this.load(this.db, id, customerId);
    if (s.status !== 'Available') throw new ConflictError(`A VM cannot be created from a ${s.status} snapshot`, 'INVALID_SNAPSHOT_STATE');
    const source = s.includeVolume && s.volumeGb !== null ? await this.vms.find(this.db, s.vmId) : undefined;
    const volume = source?.blockStorageTierId ? { block_storage_tier_id: source.blockStorageTierId, block_storage_gb: s.volumeGb! } : {};
    return this.compute.create(customerId, { name: input.name, location_id: s.locationId, tier_id: input.tier_id, os: s.os, ...volume, ...(input.ssh_key_ids ? { ssh_key_ids: input.ssh_key_ids } : {}) }, { snapshotId: s.id, minDiskGb: s.diskGb });
  }

  /** Writes the snapshot back onto its VM (what the VM wrote since is lost); the VM ends as it was (Running or Stopped). */
  restore(customerId: number, id: number): Promise<{ snapshot: SnapshotWithState; vm: Vm }> {
    return this.db.transaction(async (tx) => this.ask(tx, await this.load(tx, id, customerId, true), customerId, undefined));
  }

  private async ask(tx: Executor, s: Snapshot, customerId: number | undefined, adminId: number | undefined): Promise<{ snapshot: SnapshotWithState; vm: Vm }> {
    if (s.status !== 'Available') throw new ConflictError(`A ${s.status} snapshot cannot be restored`, 'INVALID_SNAPSHOT_STATE');
    const before = await this.vms.find(tx, s.vmId);
    if (!before || before.status === 'Deleted') throw new ConflictError('The VM this snapshot was taken of is deleted; create a new VM from it instead', 'VM_DELETED');
    const vm = await this.actions.beginTask(tx, s.vmId, customerId, 'restore', 'be restored');
    await this.repo.putRestore(tx, { vmId: vm.id, snapshotId: s.id, start: vm.status === 'Running', adminId: adminId ?? null, requestedAt: this.clock.now() });
    return { snapshot: await this.one(s, tx), vm };
  }

  /** Staff restore a customer's VM from its snapshot (operate_compute): audited, and the customer told in the app and by mail. */
  staffRestore(actor: StaffActor, id: number): Promise<{ snapshot: SnapshotWithState; vm: Vm }> {
    return this.db.transaction(async (tx) => {
      const s = await this.load(tx, id, undefined, true);
      const done = await this.ask(tx, s, undefined, actor.adminId);
      await this.staff.audit.record(tx, {
        actor: { type: 'admin', id: actor.adminId, ip: actor.ip, userAgent: actor.userAgent },
        action: 'vm.staff_restore',
        targetType: 'vm',
        targetId: s.vmId,
        before: { status: done.vm.status },
        after: { pending_action: 'restore', snapshot_id: s.id, snapshot_name: s.name, customer_id: s.customerId },
      });
      const vm = done.vm;
      const taken = s.completedAt ?? s.createdAt;
      const did = `restored your VM ${vm.name} from its snapshot "${s.name}" of ${taken.toISOString()}: what was written on its disks since then is gone`;
      const title = `Your VM ${vm.name} was restored from a snapshot by our team`;
      await this.staff.notifications.notify(s.customerId, 'VM_STAFF_ACTION', { title, body: `Our team ${did}. If you did not ask for this, open a support ticket.`, reference: { type: 'vm', id: `${vm.id}:restore:${this.clock.now().toISOString()}` } }, tx);
      const owner = await this.actions.ownerOf(tx, vm.id);
      if (owner) {
        await this.staff.mailer.queueMail(
          owner.customerEmail,
          noticeMail({ template: 'vm_staff_action', subject: title, lines: [`Hello ${owner.customerName},`, `Our team ${did}.`, 'If you did not ask for this, open a support ticket.'] }),
          tx,
        );
      }
      return done;
    });
  }
}

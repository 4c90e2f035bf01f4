import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { DatacenterError, type Backups, type VmHosts } from '../../integrations/datacenter/index.js';
import type { BlobStore } from '../../integrations/object-storage/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { leaseEnd, settleFailure } from '../../platform/durable/index.js';
import type { JobDefinition, JobQueue } from '../../platform/queue/queue.js';
import type { Vm, VmRestoreHolds } from '../compute/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { latestSlot } from './backup-schedule.js';
import { BACKUP_WORK, CHUNK_SAFETY_MS, RESTORE_WORK, SWEEP_LEASE_MS, TEMP_COPY_AGE_MS } from './backups.policy.js';
import type { Backup, BackupsRepository, Restore } from './backups.repository.js';
import { vmBackups } from './backups.tables.js';
import type { WorkPayload } from './backups.service.js';
import { backupPieces, readManifest, sweepChunks, uploadBackup } from './chunk-store.js';

/** A reason that the customer may read: a datacenter failure's own message, else a plain line. */
function reasonOf(err: unknown, doing: string): string {
  if (err instanceof DatacenterError) return err.message;
  const name = (err as { name?: string }).name ?? '';
  if (/Timeout|Abort|ECONNREFUSED|ECONNRESET|socket|fetch failed|outage|NetworkingError/i.test(`${name} ${(err as Error).message ?? ''}`)) return `the backup storage could not be reached; could not ${doing}`;
  return `could not ${doing}`;
}

/** Where a restore waits for its new VM (it is made while the restore waits). */
const WAIT_FOR_VM_MS = 15_000;

/**
 * The worker side of backups, durable work on src/platform/durable: the scheduler (one backup per
 * VM and slot), one attempt of a backup (copy the disk, upload the chunks not yet stored, write
 * the manifest last), one attempt of a restore (hold the VM, stop it, write its disk from the
 * chunks, start it), the retries and giving up, keep-last, and the sweeps (due work, lost leases,
 * chunks nobody refers to, temporary copies at the hypervisors). No datacenter or storage call
 * runs inside a transaction.
 */
export class BackupWorkService {
  constructor(
    private readonly db: Database,
    private readonly repo: BackupsRepository,
    private readonly clock: Clock,
    /** the real time: the ages of stored chunks are the storage's times */
    private readonly wallClock: Clock,
    private readonly queue: JobQueue,
    private readonly workJob: () => JobDefinition<WorkPayload>,
    private readonly store: BlobStore,
    private readonly backups: Backups,
    private readonly vmHosts: VmHosts,
    private readonly holds: VmRestoreHolds,
    private readonly webhooks: WebhookEmitter,
    private readonly log: Logger,
  ) {}

  private storeReady: Promise<void> | undefined;
  private ensureStore(): Promise<void> {
    this.storeReady ??= this.store.ensure().catch((err) => {
      this.storeReady = undefined;
      throw err;
    });
    return this.storeReady;
  }

  /** The scheduled tick: a backup for every plan whose latest slot has none yet (taken after it was switched on). */
  async schedule(): Promise<number> {
    const now = this.clock.now();
    let made = 0;
    for (const plan of await this.repo.enabledPlans(this.db)) {
      const slot = latestSlot(plan, now);
      if (!plan.enabledAt || slot < plan.enabledAt) continue;
      const b = await this.db.transaction(async (tx) => {
        const row = await this.repo.insertBackup(tx, { vmId: plan.vmId, customerId: plan.customerId, locationId: plan.locationId, vmName: plan.vmName, trigger: 'scheduled', slot, createdAt: now, nextAttemptAt: now });
        if (row) await this.queue.send(this.workJob(), { kind: 'backup', id: row.id }, { tx });
        return row;
      });
      if (b) made++;
    }
    return made;
  }

  /** The sweep of due work: pending backups and restores whose time came, leases that ran out. */
  async requeueDue(): Promise<{ backups: number; restores: number }> {
    const now = this.clock.now();
    const backups = await this.repo.dueBackups(this.db, now);
    for (const id of backups) await this.queue.send(this.workJob(), { kind: 'backup', id });
    const restores = await this.repo.dueRestores(this.db, now);
    for (const r of restores) await this.queue.send(this.workJob(), { kind: 'restore', id: r.id });
    return { backups: backups.length, restores: restores.length };
  }

  run(p: WorkPayload): Promise<void> {
    return p.kind === 'backup' ? this.runBackup(p.id) : this.runRestore(p.id);
  }

  // ---- backups

  /** Claims the backup (not while the chunk sweep holds the store), or answers why not. */
  private claimBackup(id: string): Promise<{ backup: Backup; vm: Vm } | 'swept' | undefined> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const policy = await this.repo.policy(tx, true);
      if (policy.sweepUntil && policy.sweepUntil > now) return 'swept';
      const backup = await this.repo.claimBackup(tx, id, now, leaseEnd(BACKUP_WORK, now));
      if (!backup) return undefined;
      const vm = await this.holds.find(tx, backup.vmId);
      if (!vm) {
        await this.repo.updateBackup(tx, id, { status: 'failed', reason: 'the VM was deleted before its backup ran', leaseUntil: null });
        return undefined;
      }
      return { backup, vm };
    });
  }

  async runBackup(id: string): Promise<void> {
    const claimed = await this.claimBackup(id);
    if (claimed === 'swept') {
      await this.repo.updateBackup(this.db, id, { nextAttemptAt: new Date(this.clock.now().getTime() + 60_000) });
      return;
    }
    if (!claimed) return;
    const { backup, vm } = claimed;
    // another change of the VM in flight (made, changed or going away): try again a little later, not a failure
    if (vm.task && vm.task !== 'restore_backup') {
      await this.repo.updateBackup(this.db, id, { status: 'pending', leaseUntil: null, attempts: backup.attempts - 1, nextAttemptAt: new Date(this.clock.now().getTime() + 60_000) });
      return;
    }
    const started = Date.now();
    try {
      if (!vm.externalId) throw new Error('the VM does not exist at the datacenter');
      await this.ensureStore();
      const copy = await this.backups.copyDisk(vm.externalId, `b${id.replace(/-/g, '').slice(0, 24)}`);
      let stats;
      try {
        stats = await uploadBackup(this.store, copy, { id, vmId: vm.id, createdAt: backup.createdAt });
      } finally {
        await copy.close().catch((err) => this.log.warn({ err, backupId: id }, 'backups: a temporary disk copy was not removed (the sweep will)'));
      }
      await this.completeBackup(backup, stats, Date.now() - started);
    } catch (err) {
      this.log.warn({ err, backupId: id, vmId: vm.id }, 'backups: attempt failed');
      await this.failBackup(backup, reasonOf(err, 'store the backup'));
    }
  }

  private async completeBackup(b: Backup, s: { diskBytes: number; chunks: number; storedBytes: number; sentBytes: number }, durationMs: number): Promise<void> {
    const now = this.clock.now();
    const done = await this.db.transaction(async (tx) => {
      const row = await this.repo.updateBackup(
        tx,
        b.id,
        { status: 'completed', reason: null, leaseUntil: null, diskBytes: s.diskBytes, chunks: s.chunks, storedBytes: s.storedBytes, sentBytes: s.sentBytes, durationMs, completedAt: now },
        sql`${vmBackups.status} = 'running' and ${vmBackups.attempts} = ${b.attempts}`,
      );
      if (!row) return undefined;
      await this.webhooks.emit(tx, { customerId: b.customerId, type: 'backup.completed', data: { backup_id: b.id, vm_id: b.vmId, vm_name: b.vmName, disk_bytes: s.diskBytes, stored_bytes: s.storedBytes } });
      // keep-last: the oldest beyond it are deleted (their manifests go now or at the sweep, their chunks at the sweep),
      // except one a restore reads from: it stays until a prune after that restore ended
      const policy = await this.repo.policy(tx);
      const old = [];
      for (const o of await this.repo.beyondKeep(tx, b.vmId, policy.keepLast)) {
        if (await this.repo.restoreUnderway(tx, o.id)) continue;
        await this.repo.updateBackup(tx, o.id, { status: 'deleted' });
        old.push(o);
      }
      return old;
    });
    for (const o of done ?? []) await this.store.delete(`backups/${o.id}.json`).catch(() => undefined);
  }

  private async failBackup(b: Backup, reason: string): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction(async (tx) => {
      const still = sql`${vmBackups.status} = 'running' and ${vmBackups.attempts} = ${b.attempts}`;
      await settleFailure(BACKUP_WORK, { attempts: b.attempts, at }, {
        retry: async (retryAt) => {
          await this.repo.updateBackup(tx, b.id, { status: 'pending', reason, leaseUntil: null, nextAttemptAt: retryAt }, still);
        },
        giveUp: async () => {
          const row = await this.repo.updateBackup(tx, b.id, { status: 'failed', reason, leaseUntil: null, completedAt: at }, still);
          if (row) await this.webhooks.emit(tx, { customerId: b.customerId, type: 'backup.failed', data: { backup_id: b.id, vm_id: b.vmId, vm_name: b.vmName, reason } });
        },
      });
    });
  }

  // ---- restores

  /**
   * Claims the restore. A restore into a new VM waits (not an attempt) until that VM runs, then
   * holds it; a restore onto its own VM holds it since it was asked.
   */
  private claimRestore(id: string): Promise<{ restore: Restore; vm: Vm; backup: Backup } | undefined> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const current = await this.repo.restore(tx, id, true);
      if (!current) return undefined;
      if (current.status === 'waiting') {
        if (current.nextAttemptAt > now) return undefined;
        const vm = await this.holds.find(tx, current.vmId);
        if (!vm || vm.status === 'Error') {
          await this.repo.updateRestore(tx, id, { status: 'failed', reason: 'the new VM could not be created', completedAt: now });
          return undefined;
        }
        // a new VM still being made, or suspended with its account (resumed, it runs): the restore waits
        if (vm.status === 'Creating' || vm.status === 'Suspended' || vm.task) {
          await this.repo.updateRestore(tx, id, { nextAttemptAt: new Date(now.getTime() + WAIT_FOR_VM_MS) });
          return undefined;
        }
        try {
          await this.holds.claim(tx, vm.id);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          await this.repo.updateRestore(tx, id, { status: 'failed', reason: `the new VM could not be held: ${err.message}`.slice(0, 500), completedAt: now });
          return undefined;
        }
        await this.repo.updateRestore(tx, id, { status: 'pending' });
      }
      const restore = await this.repo.claimRestore(tx, id, now, leaseEnd(RESTORE_WORK, now));
      if (!restore) return undefined;
      const vm = await this.holds.find(tx, restore.vmId);
      const backup = await this.repo.backup(tx, restore.backupId);
      if (!vm || !backup) {
        await this.repo.updateRestore(tx, id, { status: 'failed', reason: 'the VM or the backup is gone', leaseUntil: null, completedAt: now });
        return undefined;
      }
      return { restore, vm, backup };
    });
  }

  async runRestore(id: string): Promise<void> {
    const claimed = await this.claimRestore(id);
    if (!claimed) return;
    const { restore, vm, backup } = claimed;
    try {
      if (!vm.externalId) throw new Error('the VM does not exist at the datacenter');
      const manifest = await readManifest(this.store, backup.id);
      if (!manifest) throw new Error('the backup is not in the backup storage');
      await this.vmHosts.stopVm(vm.externalId);
      await this.backups.writeDisk(vm.externalId, manifest.disk_bytes, backupPieces(this.store, manifest));
      // the account was suspended meanwhile: the machine stays off (the release hands the VM over to the suspend)
      const held = await this.holds.find(this.db, vm.id);
      if (held?.task === 'restore_backup' && held.status !== 'Suspended') await this.vmHosts.startVm(vm.externalId);
      await this.db.transaction(async (tx) => {
        const row = await this.repo.updateRestore(tx, id, { status: 'completed', reason: null, leaseUntil: null, completedAt: this.clock.now() }, sql`status = 'running' and attempts = ${restore.attempts}`);
        if (row) await this.holds.release(tx, vm.id, 'Running');
      });
    } catch (err) {
      this.log.warn({ err, restoreId: id, vmId: vm.id }, 'backups: restore attempt failed');
      const reason = reasonOf(err, 'restore the backup');
      const at = this.clock.now();
      await this.db.transaction(async (tx) => {
        const still = sql`status = 'running' and attempts = ${restore.attempts}`;
        await settleFailure(RESTORE_WORK, { attempts: restore.attempts, at }, {
          retry: async (retryAt) => {
            await this.repo.updateRestore(tx, id, { status: 'pending', reason, leaseUntil: null, nextAttemptAt: retryAt }, still);
          },
          giveUp: async () => {
            const row = await this.repo.updateRestore(tx, id, { status: 'failed', reason, leaseUntil: null, completedAt: at }, still);
            if (row) await this.holds.release(tx, vm.id, 'Stopped');
          },
        });
      });
    }
  }

  // ---- sweeps

  /**
   * The chunk sweep: holds the store against new backups (none may be running: it waits for
   * them), deletes unreferenced chunks older than the safety age and the manifests of deleted
   * backups, then lets go. Also removes temporary disk copies a dead worker left at a hypervisor.
   */
  async sweepStore(): Promise<{ chunks: number; manifests: number; bytes: number; temporary: number }> {
    const temporary = await this.backups.sweepTemporary(TEMP_COPY_AGE_MS).catch((err) => {
      this.log.warn({ err }, 'backups: temporary copies not swept');
      return 0;
    });
    const now = this.clock.now();
    const held = await this.db.transaction(async (tx: Executor) => {
      const policy = await this.repo.policy(tx, true);
      if (policy.sweepUntil && policy.sweepUntil > now) return false;
      if (await this.repo.backupRunning(tx, now)) return false;
      await this.repo.updatePolicy(tx, { sweepUntil: new Date(now.getTime() + SWEEP_LEASE_MS) });
      return true;
    });
    if (!held) return { chunks: 0, manifests: 0, bytes: 0, temporary };
    try {
      await this.ensureStore();
      const gone = await this.repo.deletedBackupIds(this.db);
      const r = await sweepChunks(this.store, this.wallClock.now(), CHUNK_SAFETY_MS, (id) => gone.has(id));
      return { ...r, temporary };
    } finally {
      await this.repo.updatePolicy(this.db, { sweepUntil: null });
    }
  }
}

import { and, desc, eq, inArray, lte, or, sql, isNull } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { queryRows } from '../../platform/db/database.js';
import { leaseFree } from '../../platform/durable/index.js';
import { vms } from '../compute/compute.tables.js';
import { backupPolicy, backupRestores, vmBackupPlans, vmBackups } from './backups.tables.js';

export type BackupPolicyRow = typeof backupPolicy.$inferSelect;
export type BackupPlan = typeof vmBackupPlans.$inferSelect;
export type Backup = typeof vmBackups.$inferSelect;
export type Restore = typeof backupRestores.$inferSelect;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** SQL of the backups module: plans, backups, restores and the policy row. */
export class BackupsRepository {
  async policy(ex: Executor, forUpdate = false): Promise<BackupPolicyRow> {
    const q = ex.select().from(backupPolicy).where(eq(backupPolicy.id, 1));
    const [row] = forUpdate ? await q.for('update') : await q;
    if (row) return row;
    await ex.insert(backupPolicy).values({ id: 1 }).onConflictDoNothing();
    return (await ex.select().from(backupPolicy).where(eq(backupPolicy.id, 1)))[0]!;
  }

  async updatePolicy(ex: Executor, set: Partial<typeof backupPolicy.$inferInsert>): Promise<BackupPolicyRow> {
    await this.policy(ex);
    const [row] = await ex.update(backupPolicy).set(set).where(eq(backupPolicy.id, 1)).returning();
    return row!;
  }

  async plan(ex: Executor, vmId: number, forUpdate = false): Promise<BackupPlan | undefined> {
    const q = ex.select().from(vmBackupPlans).where(eq(vmBackupPlans.vmId, vmId));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  async savePlan(ex: Executor, row: typeof vmBackupPlans.$inferInsert): Promise<BackupPlan> {
    const [saved] = await ex
      .insert(vmBackupPlans)
      .values(row)
      .onConflictDoUpdate({ target: vmBackupPlans.vmId, set: { enabled: row.enabled, frequency: row.frequency, hour: row.hour, weekday: row.weekday ?? null, enabledAt: row.enabledAt ?? null, updatedAt: row.updatedAt } })
      .returning();
    return saved!;
  }

  /** Plans switched on, of VMs that are not gone, with their VM's name and location. */
  enabledPlans(ex: Executor): Promise<(BackupPlan & { vmName: string; locationId: number })[]> {
    return ex
      .select({ plan: vmBackupPlans, vmName: vms.name, locationId: vms.locationId })
      .from(vmBackupPlans)
      .innerJoin(vms, eq(vms.id, vmBackupPlans.vmId))
      .where(and(eq(vmBackupPlans.enabled, true), sql`${vms.status} not in ('Deleted', 'Deleting')`))
      .then((rows) => rows.map((r) => ({ ...r.plan, vmName: r.vmName, locationId: r.locationId })));
  }

  /** Inserts a backup; a scheduled one already made for its slot answers undefined. */
  async insertBackup(ex: Executor, row: typeof vmBackups.$inferInsert): Promise<Backup | undefined> {
    const [b] = await ex.insert(vmBackups).values(row).onConflictDoNothing().returning();
    return b;
  }

  async backup(ex: Executor, id: string, forUpdate = false): Promise<Backup | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const q = ex.select().from(vmBackups).where(eq(vmBackups.id, id));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  backupsOfVm(ex: Executor, vmId: number): Promise<Backup[]> {
    return ex.select().from(vmBackups).where(and(eq(vmBackups.vmId, vmId), sql`${vmBackups.status} <> 'deleted'`)).orderBy(desc(vmBackups.createdAt)).limit(100);
  }

  backupsOfCustomer(ex: Executor, customerId: number, status?: string): Promise<Backup[]> {
    return ex
      .select()
      .from(vmBackups)
      .where(and(eq(vmBackups.customerId, customerId), status ? eq(vmBackups.status, status as Backup['status']) : sql`${vmBackups.status} <> 'deleted'`))
      .orderBy(desc(vmBackups.createdAt))
      .limit(100);
  }

  /** The OS of the VM a backup was taken of (the VM may be deleted). */
  async osOf(ex: Executor, vmId: number): Promise<string | undefined> {
    const [row] = await ex.select({ os: vms.os }).from(vms).where(eq(vms.id, vmId));
    return row?.os;
  }

  staffList(ex: Executor, f: { vmId?: number | undefined; customerId?: number | undefined }): Promise<Backup[]> {
    return ex
      .select()
      .from(vmBackups)
      .where(and(sql`${vmBackups.status} <> 'deleted'`, f.vmId !== undefined ? eq(vmBackups.vmId, f.vmId) : undefined, f.customerId !== undefined ? eq(vmBackups.customerId, f.customerId) : undefined))
      .orderBy(desc(vmBackups.createdAt))
      .limit(100);
  }

  async updateBackup(ex: Executor, id: string, set: Partial<typeof vmBackups.$inferInsert>, where?: ReturnType<typeof sql>): Promise<Backup | undefined> {
    const [row] = await ex
      .update(vmBackups)
      .set(set)
      .where(where ? and(eq(vmBackups.id, id), where) : eq(vmBackups.id, id))
      .returning();
    return row;
  }

  /** Takes the backup for one attempt when it is due and nobody holds it. */
  claimBackup(ex: Executor, id: string, now: Date, leaseUntil: Date): Promise<Backup | undefined> {
    return this.updateBackup(ex, id, { status: 'running', leaseUntil, startedAt: now, attempts: sql`${vmBackups.attempts} + 1` as unknown as number }, sql`${vmBackups.status} in ('pending', 'running') and ${vmBackups.nextAttemptAt} <= ${at(now)} and ${leaseFree(sql`${vmBackups.leaseUntil}`, now)}`);
  }

  /** Backups due now (pending whose time came, running whose lease ran out). */
  async dueBackups(ex: Executor, now: Date, limit = 50): Promise<string[]> {
    const rows = await ex
      .select({ id: vmBackups.id })
      .from(vmBackups)
      .where(and(inArray(vmBackups.status, ['pending', 'running']), lte(vmBackups.nextAttemptAt, now), or(isNull(vmBackups.leaseUntil), lte(vmBackups.leaseUntil, now))))
      .orderBy(vmBackups.nextAttemptAt)
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** Whether a backup holds a live lease (the chunk sweep waits for it). */
  async backupRunning(ex: Executor, now: Date): Promise<boolean> {
    const [row] = await ex.select({ id: vmBackups.id }).from(vmBackups).where(and(eq(vmBackups.status, 'running'), sql`${vmBackups.leaseUntil} > ${at(now)}`)).limit(1);
    return row !== undefined;
  }

  /** Completed backups of the VM past the newest `keep`, locked (a restore asked of one locks it too). */
  async beyondKeep(ex: Executor, vmId: number, keep: number): Promise<Backup[]> {
    return ex.select().from(vmBackups).where(and(eq(vmBackups.vmId, vmId), eq(vmBackups.status, 'completed'))).orderBy(desc(vmBackups.completedAt)).offset(keep).for('update');
  }

  async deletedBackupIds(ex: Executor): Promise<Set<string>> {
    const rows = await ex.select({ id: vmBackups.id }).from(vmBackups).where(inArray(vmBackups.status, ['deleted', 'failed']));
    return new Set(rows.map((r) => r.id));
  }

  async insertRestore(ex: Executor, row: typeof backupRestores.$inferInsert): Promise<Restore> {
    const [r] = await ex.insert(backupRestores).values(row).returning();
    return r!;
  }

  async restore(ex: Executor, id: string, forUpdate = false): Promise<Restore | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const q = ex.select().from(backupRestores).where(eq(backupRestores.id, id));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  /** Whether a restore of the backup is waiting, due or running. */
  async restoreUnderway(ex: Executor, backupId: string): Promise<boolean> {
    const [row] = await ex.select({ id: backupRestores.id }).from(backupRestores).where(and(eq(backupRestores.backupId, backupId), inArray(backupRestores.status, ['waiting', 'pending', 'running']))).limit(1);
    return row !== undefined;
  }

  restoresOfVm(ex: Executor, vmId: number): Promise<Restore[]> {
    return ex.select().from(backupRestores).where(eq(backupRestores.vmId, vmId)).orderBy(desc(backupRestores.createdAt)).limit(20);
  }

  async updateRestore(ex: Executor, id: string, set: Partial<typeof backupRestores.$inferInsert>, where?: ReturnType<typeof sql>): Promise<Restore | undefined> {
    const [row] = await ex
      .update(backupRestores)
      .set(set)
      .where(where ? and(eq(backupRestores.id, id), where) : eq(backupRestores.id, id))
      .returning();
    return row;
  }

  claimRestore(ex: Executor, id: string, now: Date, leaseUntil: Date): Promise<Restore | undefined> {
    return this.updateRestore(ex, id, { status: 'running', leaseUntil, attempts: sql`${backupRestores.attempts} + 1` as unknown as number }, sql`${backupRestores.status} in ('pending', 'running') and ${backupRestores.nextAttemptAt} <= ${at(now)} and ${leaseFree(sql`${backupRestores.leaseUntil}`, now)}`);
  }

  async dueRestores(ex: Executor, now: Date, limit = 50): Promise<Restore[]> {
    return ex
      .select()
      .from(backupRestores)
      .where(and(inArray(backupRestores.status, ['waiting', 'pending', 'running']), lte(backupRestores.nextAttemptAt, now), or(isNull(backupRestores.leaseUntil), lte(backupRestores.leaseUntil, now))))
      .orderBy(backupRestores.nextAttemptAt)
      .limit(limit);
  }

  /** Backups per customer and location: how many are kept, their bytes, and the VMs with backups on. */
  usage(ex: Executor, f: { customerId?: number | undefined; locationId?: number | undefined }) {
    return queryRows<{ customer_id: number; location_id: number; vms_enabled: number; backups: number; stored_bytes: string; failed: number }>(
      ex,
      sql`select k.customer_id, k.location_id,
            (select count(*)::int from vm_backup_plans p join vms v on v.id = p.vm_id where p.enabled and p.customer_id = k.customer_id and v.location_id = k.location_id) as vms_enabled,
            count(b.id) filter (where b.status = 'completed')::int as backups,
            coalesce(sum(b.stored_bytes) filter (where b.status = 'completed'), 0)::text as stored_bytes,
            count(b.id) filter (where b.status = 'failed')::int as failed
          from (select distinct customer_id, location_id from vm_backups
                union select p.customer_id, v.location_id from vm_backup_plans p join vms v on v.id = p.vm_id where p.enabled) k
          left join vm_backups b on b.customer_id = k.customer_id and b.location_id = k.location_id
          where (${f.customerId ?? null}::int is null or k.customer_id = ${f.customerId ?? null}::int)
            and (${f.locationId ?? null}::int is null or k.location_id = ${f.locationId ?? null}::int)
          group by k.customer_id, k.location_id
          order by k.customer_id, k.location_id`,
    );
  }
}

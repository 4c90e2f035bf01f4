import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { lockScoped } from '../../platform/db/advisory-locks.js';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { vms } from '../compute/compute.tables.js';
import { alertPolicies, alerts } from './alerts.tables.js';

export type AlertPolicy = typeof alertPolicies.$inferSelect;
export type Alert = typeof alerts.$inferSelect;
export type AlertWithVm = Alert & { vmName: string | null };

export interface AlertFilter {
  customerId: number;
  vmId?: number | undefined;
  policyId?: number | undefined;
  open?: boolean | undefined;
}

export class AlertsRepository {
  // ---- policies ----

  async policy(ex: Executor, customerId: number, id: number, opts: { forUpdate?: boolean } = {}): Promise<AlertPolicy | undefined> {
    const q = ex.select().from(alertPolicies).where(and(eq(alertPolicies.id, id), eq(alertPolicies.customerId, customerId)));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async policies(ex: Executor, customerId: number, page: { limit: number; offset: number }): Promise<{ items: AlertPolicy[]; total: number }> {
    const where = eq(alertPolicies.customerId, customerId);
    const items = await ex.select().from(alertPolicies).where(where).orderBy(asc(alertPolicies.id)).limit(page.limit).offset(page.offset);
    const [total] = await ex.select({ n: count() }).from(alertPolicies).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Until the transaction ends, the customer's other policy creates wait (their count and its limit). */
  async lockPoliciesOf(tx: Executor, customerId: number): Promise<void> {
    await lockScoped(tx, 'alertPolicies', customerId);
  }

  async countPolicies(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(alertPolicies).where(eq(alertPolicies.customerId, customerId));
    return row?.n ?? 0;
  }

  async insertPolicy(ex: Executor, row: typeof alertPolicies.$inferInsert): Promise<AlertPolicy> {
    const [created] = await ex.insert(alertPolicies).values(row).returning();
    return created!;
  }

  async updatePolicy(ex: Executor, id: number, set: Partial<typeof alertPolicies.$inferInsert>): Promise<AlertPolicy> {
    const [row] = await ex.update(alertPolicies).set(set).where(eq(alertPolicies.id, id)).returning();
    return row!;
  }

  async deletePolicy(ex: Executor, id: number): Promise<void> {
    await ex.delete(alertPolicies).where(eq(alertPolicies.id, id));
  }

  /** Enabled policies after `afterId`, in id order (the evaluation's pages). */
  async enabledPoliciesAfter(ex: Executor, afterId: number, limit: number): Promise<AlertPolicy[]> {
    return ex.select().from(alertPolicies).where(and(eq(alertPolicies.enabled, true), gt(alertPolicies.id, afterId))).orderBy(asc(alertPolicies.id)).limit(limit);
  }

  /** Locks the policy for one evaluation; undefined when another worker holds it or it is gone. */
  async lockPolicy(ex: Executor, id: number): Promise<AlertPolicy | undefined> {
    const [row] = await ex.select().from(alertPolicies).where(eq(alertPolicies.id, id)).for('update', { skipLocked: true });
    return row;
  }

  /** Open incidents per policy of the account. */
  async openCounts(ex: Executor, customerId: number): Promise<Map<number, number>> {
    const rows = await ex
      .select({ policyId: alerts.policyId, n: count() })
      .from(alerts)
      .where(and(eq(alerts.customerId, customerId), isNull(alerts.resolvedAt)))
      .groupBy(alerts.policyId);
    return new Map(rows.filter((r) => r.policyId !== null).map((r) => [r.policyId!, r.n]));
  }

  // ---- VMs ----

  /** The customer's VMs a policy watches (every VM not Deleted), or the one it names. */
  async watchedVms(ex: Executor, customerId: number, vmId: number | null): Promise<{ id: number; name: string }[]> {
    return ex
      .select({ id: vms.id, name: vms.name })
      .from(vms)
      .where(and(eq(vms.customerId, customerId), sql`${vms.status} <> 'Deleted'`, vmId === null ? undefined : eq(vms.id, vmId)))
      .orderBy(asc(vms.id));
  }

  async vmOf(ex: Executor, customerId: number, vmId: number): Promise<{ id: number; name: string; status: string } | undefined> {
    const [row] = await ex.select({ id: vms.id, name: vms.name, status: vms.status }).from(vms).where(and(eq(vms.id, vmId), eq(vms.customerId, customerId)));
    return row;
  }

  // ---- incidents ----

  async openAlerts(ex: Executor, policyId: number): Promise<Alert[]> {
    return ex.select().from(alerts).where(and(eq(alerts.policyId, policyId), isNull(alerts.resolvedAt)));
  }

  /** Opens an incident; undefined when one is open for the policy and VM already (another run won). */
  async fire(ex: Executor, row: typeof alerts.$inferInsert): Promise<Alert | undefined> {
    const rows = await queryRows<{ id: number }>(
      ex,
      sql`insert into alerts (customer_id, policy_id, vm_id, policy_name, metric, comparison, threshold, aggregation, window_minutes, fired_value, started_at)
          values (${row.customerId}, ${row.policyId}, ${row.vmId}, ${row.policyName}, ${row.metric}, ${row.comparison}, ${row.threshold}, ${row.aggregation}, ${row.windowMinutes}, ${row.firedValue}, ${row.startedAt!.toISOString()}::timestamptz)
          on conflict (policy_id, vm_id) where resolved_at is null do nothing
          returning id`,
    );
    if (rows.length === 0) return undefined;
    const [created] = await ex.select().from(alerts).where(eq(alerts.id, Number(rows[0]!.id)));
    return created;
  }

  /** Resolves an open incident; undefined when it was resolved already. */
  async resolve(ex: Executor, id: number, at: Date, value: string | null, resolution: string): Promise<Alert | undefined> {
    const [row] = await ex
      .update(alerts)
      .set({ resolvedAt: at, resolvedValue: value, resolution })
      .where(and(eq(alerts.id, id), isNull(alerts.resolvedAt)))
      .returning();
    return row;
  }

  async list(ex: Executor, f: AlertFilter, page: { limit: number; offset: number }): Promise<{ items: AlertWithVm[]; total: number }> {
    const where = and(
      eq(alerts.customerId, f.customerId),
      f.vmId === undefined ? undefined : eq(alerts.vmId, f.vmId),
      f.policyId === undefined ? undefined : eq(alerts.policyId, f.policyId),
      f.open === undefined ? undefined : f.open ? isNull(alerts.resolvedAt) : sql`${alerts.resolvedAt} is not null`,
    );
    const rows = await ex
      .select({ alert: alerts, vmName: vms.name })
      .from(alerts)
      .leftJoin(vms, eq(vms.id, alerts.vmId))
      .where(where)
      .orderBy(desc(alerts.startedAt), desc(alerts.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await ex.select({ n: count() }).from(alerts).where(where);
    return { items: rows.map((r) => ({ ...r.alert, vmName: r.vmName })), total: total?.n ?? 0 };
  }

  async vmNames(ex: Executor, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await ex.select({ id: vms.id, name: vms.name }).from(vms).where(inArray(vms.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async contact(ex: Executor, customerId: number): Promise<{ email: string; first_name: string } | undefined> {
    const [row] = await queryRows<{ email: string; first_name: string }>(ex, sql`select email, first_name from customers where id = ${customerId}`);
    return row;
  }
}

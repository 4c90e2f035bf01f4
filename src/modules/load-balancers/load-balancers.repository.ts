import { and, asc, count, desc, eq, inArray, ne, notInArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { vms } from '../compute/compute.tables.js';
import { tiers } from '../tiers/tiers.tables.js';
import { loadBalancers, loadBalancerTargets, type LbStatus } from './load-balancers.tables.js';

export type LoadBalancerRow = typeof loadBalancers.$inferSelect;
export interface LbFilter {
  customerId?: number;
  status?: LbStatus;
}

export class LoadBalancersRepository {
  /** Balancers that count against loadbalancer_limit: all but Deleted. */
  async countLive(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(loadBalancers)
      .where(and(eq(loadBalancers.customerId, customerId), ne(loadBalancers.status, 'Deleted')));
    return row?.n ?? 0;
  }

  async insert(ex: Executor, row: typeof loadBalancers.$inferInsert): Promise<LoadBalancerRow> {
    const [created] = await ex.insert(loadBalancers).values(row).returning();
    return created!;
  }

  async find(ex: Executor, customerId: number, uuid: string, forUpdate = false): Promise<LoadBalancerRow | undefined> {
    const q = ex
      .select()
      .from(loadBalancers)
      .where(and(eq(loadBalancers.uuid, uuid), eq(loadBalancers.customerId, customerId), ne(loadBalancers.status, 'Deleted')));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  async findById(ex: Executor, id: number): Promise<LoadBalancerRow | undefined> {
    const [row] = await ex.select().from(loadBalancers).where(eq(loadBalancers.id, id));
    return row;
  }

  async list(ex: Executor, f: LbFilter, p: PageRequest): Promise<Page<LoadBalancerRow>> {
    const conds: SQL[] = [];
    if (f.customerId !== undefined) conds.push(eq(loadBalancers.customerId, f.customerId));
    conds.push(f.status !== undefined ? eq(loadBalancers.status, f.status) : ne(loadBalancers.status, 'Deleted'));
    const where = and(...conds);
    const items = await ex.select().from(loadBalancers).where(where).orderBy(desc(loadBalancers.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(loadBalancers).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async update(ex: Executor, id: number, set: Partial<typeof loadBalancers.$inferInsert>): Promise<LoadBalancerRow> {
    const [row] = await ex.update(loadBalancers).set(set).where(eq(loadBalancers.id, id)).returning();
    return row!;
  }

  /** The target VMs (not Deleted) of the balancers. */
  async targets(ex: Executor, lbIds: number[]): Promise<{ loadBalancerId: number; vmId: number }[]> {
    if (lbIds.length === 0) return [];
    return ex
      .select({ loadBalancerId: loadBalancerTargets.loadBalancerId, vmId: loadBalancerTargets.vmId })
      .from(loadBalancerTargets)
      .innerJoin(vms, eq(vms.id, loadBalancerTargets.vmId))
      .where(and(inArray(loadBalancerTargets.loadBalancerId, lbIds), ne(vms.status, 'Deleted')))
      .orderBy(asc(loadBalancerTargets.vmId));
  }

  /** The customer's VMs (not Deleted) with their tier's load-balancer switch and configuration. */
  async vmsWithTier(ex: Executor, customerId: number, vmIds: number[]) {
    if (vmIds.length === 0) return [];
    return ex
      .select({ id: vms.id, locationId: vms.locationId, tierId: tiers.id, tierName: tiers.name, enabled: tiers.loadbalanceEnabled, config: tiers.loadbalanceConfig })
      .from(vms)
      .innerJoin(tiers, eq(tiers.id, vms.tierId))
      .where(and(inArray(vms.id, vmIds), eq(vms.customerId, customerId), notInArray(vms.status, ['Deleted', 'Deleting'])));
  }

  async addTargets(ex: Executor, lbId: number, vmIds: number[]): Promise<number> {
    if (vmIds.length === 0) return 0;
    const rows = await ex
      .insert(loadBalancerTargets)
      .values(vmIds.map((vmId) => ({ loadBalancerId: lbId, vmId })))
      .onConflictDoNothing()
      .returning({ v: loadBalancerTargets.vmId });
    return rows.length;
  }

  async removeTarget(ex: Executor, lbId: number, vmId: number): Promise<boolean> {
    const rows = await ex
      .delete(loadBalancerTargets)
      .where(and(eq(loadBalancerTargets.loadBalancerId, lbId), eq(loadBalancerTargets.vmId, vmId)))
      .returning({ v: loadBalancerTargets.vmId });
    return rows.length > 0;
  }

  /** The balancers (not Deleted) the VM is a target of. */
  async balancersOfVm(ex: Executor, vmId: number): Promise<LoadBalancerRow[]> {
    const rows = await ex
      .select({ lb: loadBalancers })
      .from(loadBalancerTargets)
      .innerJoin(loadBalancers, eq(loadBalancers.id, loadBalancerTargets.loadBalancerId))
      .where(and(eq(loadBalancerTargets.vmId, vmId), notInArray(loadBalancers.status, ['Deleting', 'Deleted'])))
      .for('update', { of: loadBalancers });
    return rows.map((r) => r.lb);
  }
}

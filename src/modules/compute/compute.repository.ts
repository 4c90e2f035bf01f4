import { and, count, desc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { offsetOf } from '../../platform/http/pagination.js';
import { vms, type VmStatus, type VmTask } from './compute.tables.js';
import { lockScoped } from '../../platform/db/advisory-locks.js';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';
import { tiers } from '../tiers/tiers.tables.js';

export type Vm = typeof vms.$inferSelect;

export interface VmLabels {
  customerEmail: string;
  customerName: string;
  tierName: string;
  locationName: string;
}

export interface VmFilter {
  customerId?: number;
  status?: VmStatus;
  locationId?: number;
  tierId?: number;
  includeDeleted?: boolean;
  search?: string;
}

export class ComputeRepository {
  /** One transaction at a time allocates public addresses in a location. */
  async lockLocationAddresses(ex: Executor, locationId: number): Promise<void> {
    await lockScoped(ex, 'locationAddresses', locationId);
  }

  async usedAddresses(ex: Executor, locationId: number): Promise<Set<string>> {
    const rows = await ex
      .select({ ip: vms.publicIp })
      .from(vms)
      .where(and(eq(vms.locationId, locationId), isNotNull(vms.publicIp)));
    return new Set(rows.map((r) => r.ip!));
  }

  async usage(ex: Executor, customerId: number): Promise<{ vms: number; publicIps: number; volumes: number }> {
    const [row] = await ex
      .select({
        vms: sql<number>`count(*)::int`,
        publicIps: sql<number>`count(${vms.publicIp})::int`,
        volumes: sql<number>`count(${vms.blockStorageTierId})::int`,
      })
      .from(vms)
      .where(and(eq(vms.customerId, customerId), ne(vms.status, 'Deleted')));
    return row ?? { vms: 0, publicIps: 0, volumes: 0 };
  }

  async insert(ex: Executor, row: typeof vms.$inferInsert): Promise<Vm> {
    const [created] = await ex.insert(vms).values(row).returning();
    return created!;
  }

  async find(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<Vm | undefined> {
    const q = ex.select().from(vms).where(eq(vms.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  private where(f: VmFilter): SQL | undefined {
    const term = f.search?.trim();
    return and(
      f.customerId !== undefined ? eq(vms.customerId, f.customerId) : undefined,
      f.status !== undefined ? eq(vms.status, f.status) : f.includeDeleted ? undefined : ne(vms.status, 'Deleted'),
      f.locationId !== undefined ? eq(vms.locationId, f.locationId) : undefined,
      f.tierId !== undefined ? eq(vms.tierId, f.tierId) : undefined,
      term ? sql`(${vms.name} ilike ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} or ${vms.publicIp} = ${term})` : undefined,
    );
  }

  async list(ex: Executor, f: VmFilter, p: PageRequest): Promise<{ items: Vm[]; total: number }> {
    const where = this.where(f);
    const items = await ex.select().from(vms).where(where).orderBy(desc(vms.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(vms).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** For staff: each VM's owner, tier and location by name. */
  async staffLabels(ex: Executor, ids: number[]): Promise<Map<number, VmLabels>> {
    if (ids.length === 0) return new Map();
    const rows = await ex
      .select({
        id: vms.id,
        customerEmail: customers.email,
        customerFirst: customers.firstName,
        customerLast: customers.lastName,
        tierName: tiers.name,
        locationName: locations.name,
      })
      .from(vms)
      .innerJoin(customers, eq(customers.id, vms.customerId))
      .innerJoin(tiers, eq(tiers.id, vms.tierId))
      .innerJoin(locations, eq(locations.id, vms.locationId))
      .where(inArray(vms.id, ids));
    return new Map(
      rows.map((r) => [r.id, { customerEmail: r.customerEmail, customerName: `${r.customerFirst} ${r.customerLast}`.trim(), tierName: r.tierName, locationName: r.locationName }]),
    );
  }

  /** A conditional move: only when the VM still waits for `task` (a repeated job changes nothing). */
  async finishTask(ex: Executor, id: number, task: VmTask, set: Partial<typeof vms.$inferInsert>): Promise<Vm | undefined> {
    const [row] = await ex
      .update(vms)
      .set(set)
      .where(and(eq(vms.id, id), eq(vms.task, task)))
      .returning();
    return row;
  }

  async update(ex: Executor, id: number, set: Partial<typeof vms.$inferInsert>): Promise<Vm | undefined> {
    const [row] = await ex.update(vms).set(set).where(eq(vms.id, id)).returning();
    return row;
  }

  /** The customer's VMs in these statuses, locked. */
  ofCustomer(ex: Executor, customerId: number, statuses: VmStatus[]): Promise<Vm[]> {
    return ex
      .select()
      .from(vms)
      .where(and(eq(vms.customerId, customerId), inArray(vms.status, statuses)))
      .orderBy(vms.id)
      .for('update');
  }

  runningIn(ex: Executor, locationId: number): Promise<Vm[]> {
    return ex
      .select()
      .from(vms)
      .where(and(eq(vms.locationId, locationId), eq(vms.status, 'Running')));
  }

}

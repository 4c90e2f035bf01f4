import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { PageRequest } from '../../platform/http/pagination.js';
import { offsetOf } from '../../platform/http/pagination.js';
import type { Executor } from '../../platform/db/database.js';
import { privateIps, privateNetworks, type IpTask, type NetworkTask } from './networks.tables.js';

export type PrivateNetwork = typeof privateNetworks.$inferSelect;
export type PrivateIp = typeof privateIps.$inferSelect;

export class NetworksRepository {
  /** The ranges the customer holds: live networks and deleted ones the datacenter has not removed yet. */
  blocksOf(ex: Executor, customerId: number): Promise<{ networkIp: string; cidr: number }[]> {
    return ex
      .select({ networkIp: privateNetworks.networkIp, cidr: privateNetworks.cidr })
      .from(privateNetworks)
      .where(and(eq(privateNetworks.customerId, customerId), or(isNull(privateNetworks.deletedAt), isNotNull(privateNetworks.task))));
  }

  async countLive(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(privateNetworks)
      .where(and(eq(privateNetworks.customerId, customerId), isNull(privateNetworks.deletedAt)));
    return row?.n ?? 0;
  }

  async insert(ex: Executor, row: typeof privateNetworks.$inferInsert): Promise<PrivateNetwork> {
    const [created] = await ex.insert(privateNetworks).values(row).returning();
    return created!;
  }

  async find(ex: Executor, id: number): Promise<PrivateNetwork | undefined> {
    const [row] = await ex.select().from(privateNetworks).where(eq(privateNetworks.id, id));
    return row;
  }

  /** A live (not deleted) network by its uuid, optionally locked. */
  async findLive(ex: Executor, uuid: string, opts: { forUpdate?: boolean } = {}): Promise<PrivateNetwork | undefined> {
    const q = ex
      .select()
      .from(privateNetworks)
      .where(and(eq(privateNetworks.uuid, uuid), isNull(privateNetworks.deletedAt)));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  listLive(ex: Executor, customerId: number): Promise<PrivateNetwork[]> {
    return ex
      .select()
      .from(privateNetworks)
      .where(and(eq(privateNetworks.customerId, customerId), isNull(privateNetworks.deletedAt)))
      .orderBy(asc(privateNetworks.id));
  }

  /** Addresses held per network (every row, attached or pending). */
  async ipCounts(ex: Executor, networkIds: number[]): Promise<Map<number, number>> {
    if (networkIds.length === 0) return new Map();
    const rows = await ex
      .select({ id: privateIps.networkId, n: count() })
      .from(privateIps)
      .where(inArray(privateIps.networkId, networkIds))
      .groupBy(privateIps.networkId);
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  async update(ex: Executor, id: number, set: Partial<typeof privateNetworks.$inferInsert>): Promise<PrivateNetwork | undefined> {
    const [row] = await ex.update(privateNetworks).set(set).where(eq(privateNetworks.id, id)).returning();
    return row;
  }

  /** A conditional move: only when the network still waits for `task` (a repeated job changes nothing). */
  async finishTask(ex: Executor, id: number, task: NetworkTask, set: Partial<typeof privateNetworks.$inferInsert>): Promise<PrivateNetwork | undefined> {
    const [row] = await ex
      .update(privateNetworks)
      .set(set)
      .where(and(eq(privateNetworks.id, id), eq(privateNetworks.task, task)))
      .returning();
    return row;
  }

  ips(ex: Executor, networkId: number): Promise<PrivateIp[]> {
    return ex.select().from(privateIps).where(eq(privateIps.networkId, networkId)).orderBy(asc(privateIps.id));
  }

  async takenIps(ex: Executor, networkId: number): Promise<Set<string>> {
    const rows = await ex.select({ ip: privateIps.ip }).from(privateIps).where(eq(privateIps.networkId, networkId));
    return new Set(rows.map((r) => r.ip));
  }

  async countCustomerIps(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(privateIps).where(eq(privateIps.customerId, customerId));
    return row?.n ?? 0;
  }

  async insertIp(ex: Executor, row: typeof privateIps.$inferInsert): Promise<PrivateIp> {
    const [created] = await ex.insert(privateIps).values(row).returning();
    return created!;
  }

  async findIp(ex: Executor, id: number): Promise<PrivateIp | undefined> {
    const [row] = await ex.select().from(privateIps).where(eq(privateIps.id, id));
    return row;
  }

  /** An instance's addresses on every network, by network name. */
  addressesOf(ex: Executor, instanceType: string, instanceId: number): Promise<{ ip: string; networkUuid: string; networkName: string }[]> {
    return ex
      .select({ ip: privateIps.ip, networkUuid: privateNetworks.uuid, networkName: privateNetworks.name })
      .from(privateIps)
      .innerJoin(privateNetworks, eq(privateNetworks.id, privateIps.networkId))
      .where(and(eq(privateIps.instanceType, instanceType), eq(privateIps.instanceId, instanceId)))
      .orderBy(privateNetworks.name, privateIps.ip);
  }

  async ipOfInstance(ex: Executor, networkId: number, instanceType: string, instanceId: number): Promise<PrivateIp | undefined> {
    const [row] = await ex
      .select()
      .from(privateIps)
      .where(and(eq(privateIps.networkId, networkId), eq(privateIps.instanceType, instanceType), eq(privateIps.instanceId, instanceId)))
      .for('update');
    return row;
  }

  async updateIp(ex: Executor, id: number, set: Partial<typeof privateIps.$inferInsert>): Promise<PrivateIp | undefined> {
    const [row] = await ex.update(privateIps).set(set).where(eq(privateIps.id, id)).returning();
    return row;
  }

  async finishIpTask(ex: Executor, id: number, task: IpTask, set: Partial<typeof privateIps.$inferInsert>): Promise<PrivateIp | undefined> {
    const [row] = await ex
      .update(privateIps)
      .set(set)
      .where(and(eq(privateIps.id, id), eq(privateIps.task, task)))
      .returning();
    return row;
  }

  /** The address leaves the network once detached (only when its detach is still what it waits for). */
  async deleteIpIfTask(ex: Executor, id: number, task: IpTask): Promise<boolean> {
    const rows = await ex
      .delete(privateIps)
      .where(and(eq(privateIps.id, id), eq(privateIps.task, task)))
      .returning({ id: privateIps.id });
    return rows.length > 0;
  }

  /** Frees every address of an instance (the instance is gone); answers their ids. */
  async releaseInstance(ex: Executor, instanceType: string, instanceId: number): Promise<number[]> {
    const rows = await ex
      .delete(privateIps)
      .where(and(eq(privateIps.instanceType, instanceType), eq(privateIps.instanceId, instanceId)))
      .returning({ id: privateIps.id });
    return rows.map((r) => r.id);
  }

  /** Every customer's networks (backoffice), newest first. */
  async adminList(ex: Executor, f: { customerId?: number; locationId?: number; includeDeleted?: boolean }, p: PageRequest): Promise<{ items: PrivateNetwork[]; total: number }> {
    const where = and(
      f.customerId !== undefined ? eq(privateNetworks.customerId, f.customerId) : undefined,
      f.locationId !== undefined ? eq(privateNetworks.locationId, f.locationId) : undefined,
      f.includeDeleted ? undefined : isNull(privateNetworks.deletedAt),
    );
    const items = await ex.select().from(privateNetworks).where(where).orderBy(desc(privateNetworks.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(privateNetworks).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async findByUuid(ex: Executor, uuid: string): Promise<PrivateNetwork | undefined> {
    const [row] = await ex.select().from(privateNetworks).where(eq(privateNetworks.uuid, uuid));
    return row;
  }

  /** Active networks of a location (what is billed there). */
  activeIn(ex: Executor, locationId: number): Promise<{ id: number }[]> {
    return ex
      .select({ id: privateNetworks.id })
      .from(privateNetworks)
      .where(and(eq(privateNetworks.locationId, locationId), eq(privateNetworks.status, 'Active')));
  }
}

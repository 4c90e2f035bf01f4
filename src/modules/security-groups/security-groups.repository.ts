import { and, asc, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { vms } from '../compute/compute.tables.js';
import { firewallRuleTypes } from '../settings/settings.tables.js';
import { securityGroupAttachments, securityGroupRules, securityGroups } from './security-groups.tables.js';

export type SecurityGroupRow = typeof securityGroups.$inferSelect;
export type SecurityGroupRuleRow = typeof securityGroupRules.$inferSelect;
export type RuleTypeRow = Pick<typeof firewallRuleTypes.$inferSelect, 'id' | 'name' | 'protocol' | 'description' | 'defaultPort'>;

export class SecurityGroupsRepository {
  /** The firewall rule types a rule may name, for the customer's form. */
  ruleTypes(ex: Executor): Promise<RuleTypeRow[]> {
    return ex
      .select({ id: firewallRuleTypes.id, name: firewallRuleTypes.name, protocol: firewallRuleTypes.protocol, description: firewallRuleTypes.description, defaultPort: firewallRuleTypes.defaultPort })
      .from(firewallRuleTypes)
      .orderBy(asc(firewallRuleTypes.id));
  }

  async ruleType(ex: Executor, id: number) {
    const [row] = await ex.select().from(firewallRuleTypes).where(eq(firewallRuleTypes.id, id));
    return row;
  }

  async insert(ex: Executor, row: typeof securityGroups.$inferInsert): Promise<SecurityGroupRow> {
    const [created] = await ex.insert(securityGroups).values(row).returning();
    return created!;
  }

  /** The customer's live group by uuid (optionally locked). */
  async find(ex: Executor, customerId: number, uuid: string, forUpdate = false): Promise<SecurityGroupRow | undefined> {
    const q = ex
      .select()
      .from(securityGroups)
      .where(and(eq(securityGroups.uuid, uuid), eq(securityGroups.customerId, customerId), isNull(securityGroups.deletedAt)));
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  async findById(ex: Executor, id: number): Promise<SecurityGroupRow | undefined> {
    const [row] = await ex.select().from(securityGroups).where(eq(securityGroups.id, id));
    return row;
  }

  async list(ex: Executor, customerId: number, p: PageRequest): Promise<Page<SecurityGroupRow>> {
    const where = and(eq(securityGroups.customerId, customerId), isNull(securityGroups.deletedAt));
    const items = await ex.select().from(securityGroups).where(where).orderBy(desc(securityGroups.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(securityGroups).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async touch(ex: Executor, id: number, at: Date, deleted = false): Promise<void> {
    await ex
      .update(securityGroups)
      .set({ updatedAt: at, ...(deleted ? { deletedAt: at } : {}) })
      .where(eq(securityGroups.id, id));
  }

  rules(ex: Executor, groupIds: number[]): Promise<SecurityGroupRuleRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return ex.select().from(securityGroupRules).where(inArray(securityGroupRules.groupId, groupIds)).orderBy(asc(securityGroupRules.id));
  }

  async insertRule(ex: Executor, row: typeof securityGroupRules.$inferInsert): Promise<SecurityGroupRuleRow> {
    const [created] = await ex.insert(securityGroupRules).values(row).returning();
    return created!;
  }

  async deleteRule(ex: Executor, groupId: number, ruleId: number): Promise<boolean> {
    const rows = await ex
      .delete(securityGroupRules)
      .where(and(eq(securityGroupRules.id, ruleId), eq(securityGroupRules.groupId, groupId)))
      .returning({ id: securityGroupRules.id });
    return rows.length > 0;
  }

  /** The VMs (not Deleted) the groups are attached to. */
  async attachedVms(ex: Executor, groupIds: number[]): Promise<{ groupId: number; vmId: number }[]> {
    if (groupIds.length === 0) return [];
    return ex
      .select({ groupId: securityGroupAttachments.groupId, vmId: securityGroupAttachments.vmId })
      .from(securityGroupAttachments)
      .innerJoin(vms, eq(vms.id, securityGroupAttachments.vmId))
      .where(and(inArray(securityGroupAttachments.groupId, groupIds), ne(vms.status, 'Deleted')))
      .orderBy(asc(securityGroupAttachments.vmId));
  }

  /** The customer's VM that is not Deleted (undefined otherwise). */
  async vmOf(ex: Executor, customerId: number, vmId: number) {
    const [row] = await ex
      .select({ id: vms.id, locationId: vms.locationId, status: vms.status })
      .from(vms)
      .where(and(eq(vms.id, vmId), eq(vms.customerId, customerId), ne(vms.status, 'Deleted')));
    return row;
  }

  async attach(ex: Executor, groupId: number, vmId: number): Promise<boolean> {
    const rows = await ex.insert(securityGroupAttachments).values({ groupId, vmId }).onConflictDoNothing().returning({ g: securityGroupAttachments.groupId });
    return rows.length > 0;
  }

  async detach(ex: Executor, groupId: number, vmId: number): Promise<boolean> {
    const rows = await ex
      .delete(securityGroupAttachments)
      .where(and(eq(securityGroupAttachments.groupId, groupId), eq(securityGroupAttachments.vmId, vmId)))
      .returning({ g: securityGroupAttachments.groupId });
    return rows.length > 0;
  }

  /** The live groups attached to a VM. */
  async groupsOfVm(ex: Executor, vmId: number): Promise<SecurityGroupRow[]> {
    return ex
      .select({ g: securityGroups })
      .from(securityGroupAttachments)
      .innerJoin(securityGroups, eq(securityGroups.id, securityGroupAttachments.groupId))
      .where(and(eq(securityGroupAttachments.vmId, vmId), isNull(securityGroups.deletedAt)))
      .then((rows) => rows.map((r) => r.g));
  }
}

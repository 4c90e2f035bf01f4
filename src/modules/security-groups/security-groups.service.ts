import ipaddr from 'ipaddr.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { SYNCED, type Applied, type FailureKind, type Lifecycle, type ResourceAdapter, type SyncState } from '../../platform/lifecycle/index.js';
import { FirewallError, type Firewalls } from '../../integrations/datacenter/index.js';
import type { SecurityGroupRow, SecurityGroupRuleRow, SecurityGroupsRepository } from './security-groups.repository.js';
import { SECURITY_GROUP_KIND } from './security-groups.tables.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import { activeLocations } from '../lookups/index.js';

export interface CreateGroupInput {
  name: string;
  location_id: number;
  description?: string;
}

export interface CreateRuleInput {
  direction: 'ingress' | 'egress';
  rule_type_id: number;
  port_from?: number;
  port_to?: number;
  remote_cidr: string;
}

export interface GroupDetail {
  group: SecurityGroupRow;
  rules: SecurityGroupRuleRow[];
  vmIds: number[];
  sync: SyncState;
}

/**
 * A CIDR block, one rule for both families (ipaddr.js): `address/prefix` with the prefix a plain
 * number in range (0–32, 0–128), no host bits set (10.0.0.0/8, not 10.0.0.1/8; 2001:db8::/32, not
 * 2001:db8::1/32), no zone (fe80::%eth0/64 is refused: a zone means nothing to a firewall of another
 * machine), IPv4 as four decimal parts (no 010.0.0.0, no 10.0). Stored in its canonical form:
 * IPv6 as RFC 5952 writes it (lowercase, shortest), so one block has one spelling.
 */
export function normalizeCidr(text: string): string | undefined {
  const m = /^([^/\s]+)\/(0|[1-9][0-9]{0,2})$/.exec(text.trim());
  if (!m) return undefined;
  const [, addr, bitsText] = m as unknown as [string, string, string];
  const bits = Number(bitsText);
  if (ipaddr.IPv4.isValidFourPartDecimal(addr)) {
    if (bits > 32) return undefined;
    const network = ipaddr.IPv4.networkAddressFromCIDR(`${addr}/${bits}`);
    return network.toString() === ipaddr.IPv4.parse(addr).toString() ? `${network.toString()}/${bits}` : undefined;
  }
  if (!addr.includes('%') && ipaddr.IPv6.isValid(addr)) {
    if (bits > 128) return undefined;
    const network = ipaddr.IPv6.networkAddressFromCIDR(`${addr}/${bits}`);
    return network.toNormalizedString() === ipaddr.IPv6.parse(addr).toNormalizedString() ? `${network.toRFC5952String()}/${bits}` : undefined;
  }
  return undefined;
}

/**
 * Security groups: every change tells the resource lifecycle in its transaction; the group's
 * adapter (this service's `apply`) applies the whole desired state at the datacenter, idempotent,
 * and a datacenter refusal is tried again by itself with back-off.
 */
export class SecurityGroupsService implements ResourceAdapter {
  readonly kind = SECURITY_GROUP_KIND;

  constructor(
    private readonly db: Database,
    private readonly repo: SecurityGroupsRepository,
    private readonly firewalls: Firewalls,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
  ) {}

  private async changed(tx: Executor, group: SecurityGroupRow, deleted = false): Promise<void> {
    await this.repo.touch(tx, group.id, this.clock.now(), deleted);
    await this.lifecycle.changed(tx, SECURITY_GROUP_KIND, group.id);
  }

  async create(customerId: number, input: CreateGroupInput): Promise<GroupDetail> {
    const name = input.name.trim();
    if (name.length === 0) throw new ValidationError('Validation failed', [{ field: 'name', message: 'must not be blank' }]);
    try {
      return await this.db.transaction(async (tx) => {
        if (!(await activeLocations.isActive(tx, input.location_id))) {
          throw new ValidationError('Validation failed', [{ field: 'location_id', message: 'no active location with this id' }]);
        }
        const now = this.clock.now();
        const group = await this.repo.insert(tx, { customerId, locationId: input.location_id, name, description: input.description ?? '', createdAt: now, updatedAt: now });
        await this.lifecycle.changed(tx, SECURITY_GROUP_KIND, group.id);
        noteActivityTarget(group.uuid);
        return { group, rules: [], vmIds: [], sync: await this.lifecycle.state(SECURITY_GROUP_KIND, group.id, tx) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('You already have a security group with this name', 'NAME_TAKEN');
      throw err;
    }
  }

  async list(customerId: number, p: PageRequest): Promise<Page<GroupDetail>> {
    const page = await this.repo.list(this.db, customerId, p);
    const ids = page.items.map((g) => g.id);
    const [rules, attached] = [await this.repo.rules(this.db, ids), await this.repo.attachedVms(this.db, ids)];
    const states = await this.lifecycle.states(SECURITY_GROUP_KIND, ids);
    return {
      total: page.total,
      items: page.items.map((group) => ({
        group,
        rules: rules.filter((r) => r.groupId === group.id),
        vmIds: attached.filter((a) => a.groupId === group.id).map((a) => a.vmId),
        sync: states.get(group.id) ?? SYNCED,
      })),
    };
  }

  async get(customerId: number, uuid: string): Promise<GroupDetail> {
    const group = await this.repo.find(this.db, customerId, uuid);
    if (!group) throw new NotFoundError('Security group');
    return this.detail(this.db, group);
  }

  private async detail(ex: Executor, group: SecurityGroupRow): Promise<GroupDetail> {
    const rules = await this.repo.rules(ex, [group.id]);
    const vmIds = (await this.repo.attachedVms(ex, [group.id])).map((a) => a.vmId);
    return { group, rules, vmIds, sync: await this.lifecycle.state(SECURITY_GROUP_KIND, group.id, ex) };
  }

  /** Refused (409 SECURITY_GROUP_IN_USE) while attached to a VM that is not Deleted. */
  async delete(customerId: number, uuid: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const group = await this.repo.find(tx, customerId, uuid, true);
      if (!group) throw new NotFoundError('Security group');
      const attached = await this.repo.attachedVms(tx, [group.id]);
      if (attached.length > 0) {
        throw new ConflictError(`The security group is attached to ${attached.length} VM(s); detach it first`, 'SECURITY_GROUP_IN_USE');
      }
      await this.changed(tx, group, true);
    });
  }

  ruleTypes() {
    return this.repo.ruleTypes(this.db);
  }

  /** The rule type's protocol decides the ports: tcp/udp need them (the type's default port stands in for a missing port_from), icmp and any refuse them. */
  async addRule(customerId: number, uuid: string, input: CreateRuleInput): Promise<SecurityGroupRuleRow> {
    return this.db.transaction(async (tx) => {
      const group = await this.repo.find(tx, customerId, uuid, true);
      if (!group) throw new NotFoundError('Security group');
      const type = await this.repo.ruleType(tx, input.rule_type_id);
      const errors: FieldError[] = [];
      if (!type) errors.push({ field: 'rule_type_id', message: 'no firewall rule type with this id' });
      const cidr = normalizeCidr(input.remote_cidr);
      if (!cidr) errors.push({ field: 'remote_cidr', message: 'must be a CIDR block such as 0.0.0.0/0 or 10.0.0.0/8 (no host bits set), or an IPv6 prefix' });
      let portFrom: number | null = null;
      let portTo: number | null = null;
      if (type && (type.protocol === 'tcp' || type.protocol === 'udp')) {
        const from = input.port_from ?? type.defaultPort;
        if (from === null) errors.push({ field: 'port_from', message: `required for a ${type.protocol} rule type` });
        else {
          portFrom = from;
          portTo = input.port_to ?? from;
          if (portTo < portFrom) errors.push({ field: 'port_to', message: 'must be at least port_from' });
        }
      } else if (type) {
        for (const f of ['port_from', 'port_to'] as const) {
          if (input[f] !== undefined) errors.push({ field: f, message: `not allowed for a ${type.protocol} rule type` });
        }
      }
      if (errors.length > 0) throw new ValidationError('Validation failed', errors);
      const rule = await this.repo.insertRule(tx, {
        groupId: group.id,
        direction: input.direction,
        ruleTypeId: type!.id,
        protocol: type!.protocol as SecurityGroupRuleRow['protocol'],
        portFrom,
        portTo,
        remoteCidr: cidr!,
        createdAt: this.clock.now(),
      });
      await this.changed(tx, group);
      return rule;
    });
  }

  async deleteRule(customerId: number, uuid: string, ruleId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const group = await this.repo.find(tx, customerId, uuid, true);
      if (!group) throw new NotFoundError('Security group');
      if (!(await this.repo.deleteRule(tx, group.id, ruleId))) throw new NotFoundError('Rule');
      await this.changed(tx, group);
    });
  }

  /** Attaches the group to the customer's VM in the same location (attaching twice is a no-op). */
  async attach(customerId: number, vmId: number, uuid: string): Promise<GroupDetail> {
    return this.db.transaction(async (tx) => {
      const vm = await this.repo.vmOf(tx, customerId, vmId);
      if (!vm) throw new NotFoundError('VM');
      const group = await this.repo.find(tx, customerId, uuid, true);
      if (!group) throw new NotFoundError('Security group');
      if (group.locationId !== vm.locationId) throw new BadRequestError('LOCATION_MISMATCH', 'The security group and the VM are in different locations');
      if (await this.repo.attach(tx, group.id, vm.id)) await this.changed(tx, group);
      return this.detail(tx, group);
    });
  }

  async detach(customerId: number, vmId: number, uuid: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const vm = await this.repo.vmOf(tx, customerId, vmId);
      if (!vm) throw new NotFoundError('VM');
      const group = await this.repo.find(tx, customerId, uuid, true);
      if (!group) throw new NotFoundError('Security group');
      if (!(await this.repo.detach(tx, group.id, vm.id))) throw new NotFoundError('Attachment');
      await this.changed(tx, group);
    });
  }

  /** Compute's VmDeletedListener: the groups the VM was attached to are applied again without it. */
  async vmDeleted(tx: Executor, vmId: number): Promise<void> {
    for (const group of await this.repo.groupsOfVm(tx, vmId)) await this.changed(tx, group);
  }

  classify(err: unknown): FailureKind | undefined {
    return err instanceof FirewallError ? 'retry' : undefined;
  }

  /** The lifecycle's apply: the whole desired state (rules and attached machines), or removal of a deleted group. */
  async apply(groupId: number): Promise<Applied | void> {
    const group = await this.repo.findById(this.db, groupId);
    if (!group) return;
    const reference = `sg-${group.uuid}`;
    if (group.deletedAt) {
      await this.firewalls.deleteSecurityGroup(reference);
      return;
    }
    const rules = await this.repo.rules(this.db, [group.id]);
    const attached = await this.repo.attachedVms(this.db, [group.id]);
    await this.firewalls.applySecurityGroup({
      reference,
      locationId: group.locationId,
      rules: rules.map((r) => ({ direction: r.direction, protocol: r.protocol, portFrom: r.portFrom, portTo: r.portTo, remoteCidr: r.remoteCidr })),
      machines: attached.map((a) => `vm-${a.vmId}`),
    });
  }
}

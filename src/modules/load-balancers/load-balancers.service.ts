import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, QuotaExceededError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { SYNCED, type Applied, type Failure, type FailureKind, type Lifecycle, type ResourceAdapter, type SyncState } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import { BalancerError, type Balancers } from '../../integrations/datacenter/index.js';
import { componentKey, type PricingService } from '../pricing/index.js';
import type { LbFilter, LoadBalancerRow, LoadBalancersRepository } from './load-balancers.repository.js';
import { LOAD_BALANCER_KIND, type ForwardingRule, type HealthCheck, type LbAlgorithm } from './load-balancers.tables.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import type { BillableStartRule } from '../charging/index.js';
import { customerQuotaLock } from '../customers/index.js';
import { activeLocations } from '../lookups/index.js';

export const LOAD_BALANCER_COMPONENT = 'load_balancer';

export interface HealthCheckInput {
  protocol: 'http' | 'https' | 'tcp';
  port: number;
  path?: string;
}

export interface CreateLbInput {
  name: string;
  location_id: number;
  algorithm: LbAlgorithm;
  forwarding_rules: ForwardingRule[];
  health_check?: HealthCheckInput | null;
  target_vm_ids?: number[];
}

export interface UpdateLbInput {
  name?: string;
  algorithm?: LbAlgorithm;
  forwarding_rules?: ForwardingRule[];
  health_check?: HealthCheckInput | null;
}

export interface LbDetail {
  lb: LoadBalancerRow;
  targetVmIds: number[];
  sync: SyncState;
}

interface BalancerShape {
  algorithm: LbAlgorithm;
  forwardingRules: ForwardingRule[];
  targets: number;
}

function checkRules(rules: ForwardingRule[], errors: FieldError[]): void {
  const seen = new Set<string>();
  for (const r of rules) {
    const layer = r.entry_protocol === 'udp' ? 'udp' : 'tcp';
    const key = `${layer}:${r.entry_port}`;
    if (seen.has(key)) errors.push({ field: 'forwarding_rules', message: `entry port ${r.entry_port} is used twice` });
    seen.add(key);
    if ((r.entry_protocol === 'udp') !== (r.target_protocol === 'udp')) {
      errors.push({ field: 'forwarding_rules', message: 'udp forwards only to udp, and tcp/http/https not to udp' });
    }
  }
}

function healthCheckOf(input: HealthCheckInput | null | undefined, errors: FieldError[]): HealthCheck | null {
  if (!input) return null;
  if (input.protocol === 'tcp' && input.path !== undefined) errors.push({ field: 'health_check.path', message: 'not allowed for a tcp health check' });
  return { protocol: input.protocol, port: input.port, path: input.protocol === 'tcp' ? null : (input.path ?? '/') };
}

/**
 * Load balancers: loadbalancer_limit counted under the customer's row lock; targets only on VMs
 * whose tier has the load-balancer switch on, and the balancer must fit the loadbalance_config of
 * every target's tier. Every change tells the resource lifecycle; this service is also the
 * balancer's adapter there (`apply`: the whole desired state, or removal of a Deleting one). A
 * balancer pays from Active until Deleted, at its own price key.
 */
export class LoadBalancersService implements ResourceAdapter {
  readonly kind = LOAD_BALANCER_KIND;

  constructor(
    private readonly db: Database,
    private readonly repo: LoadBalancersRepository,
    private readonly pricing: PricingService,
    private readonly balancers: Balancers,
    private readonly metering: Metering,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
    private readonly billable: BillableStartRule,
  ) {}

  private async changed(tx: Executor, lb: LoadBalancerRow, set: Parameters<LoadBalancersRepository['update']>[2] = {}): Promise<LoadBalancerRow> {
    const row = await this.repo.update(tx, lb.id, { ...set, updatedAt: this.clock.now() });
    await this.lifecycle.changed(tx, LOAD_BALANCER_KIND, lb.id);
    return row;
  }

  /** Checks the targets (the customer's, same location, switch on) and the balancer against their tiers. */
  private async checkTargets(tx: Executor, customerId: number, locationId: number, vmIds: number[], shape: BalancerShape): Promise<void> {
    const found = await this.repo.vmsWithTier(tx, customerId, vmIds);
    const errors: FieldError[] = [];
    for (const id of vmIds) {
      const vm = found.find((v) => v.id === id);
      if (!vm) {
        errors.push({ field: 'target_vm_ids', message: `VM ${id} not found` });
        continue;
      }
      if (vm.locationId !== locationId) errors.push({ field: 'target_vm_ids', message: `VM ${id} is in another location` });
      if (!vm.enabled) errors.push({ field: 'target_vm_ids', message: `the tier ${vm.tierName} of VM ${id} does not allow load balancing` });
      const c = vm.config;
      if (c.max_targets !== undefined && shape.targets > c.max_targets) errors.push({ field: 'target_vm_ids', message: `the tier ${vm.tierName} allows at most ${c.max_targets} targets` });
      if (c.max_forwarding_rules !== undefined && shape.forwardingRules.length > c.max_forwarding_rules) {
        errors.push({ field: 'forwarding_rules', message: `the tier ${vm.tierName} allows at most ${c.max_forwarding_rules} forwarding rules` });
      }
      if (c.algorithms && !c.algorithms.includes(shape.algorithm)) errors.push({ field: 'algorithm', message: `the tier ${vm.tierName} allows ${c.algorithms.join(', ')}` });
      const protocols = c.protocols;
      if (protocols && shape.forwardingRules.some((r) => !protocols.includes(r.entry_protocol) || !protocols.includes(r.target_protocol))) {
        errors.push({ field: 'forwarding_rules', message: `the tier ${vm.tierName} allows the protocols ${protocols.join(', ')}` });
      }
    }
    if (errors.length > 0) throw new BadRequestError('TARGET_NOT_ALLOWED', 'A target VM or its tier does not allow this load balancer', dedupe(errors));
  }

  async create(customerId: number, input: CreateLbInput): Promise<LbDetail> {
    const errors: FieldError[] = [];
    checkRules(input.forwarding_rules, errors);
    const healthCheck = healthCheckOf(input.health_check, errors);
    if (input.name.trim().length === 0) errors.push({ field: 'name', message: 'must not be blank' });
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    const targetIds = [...new Set(input.target_vm_ids ?? [])];
    const component = await this.pricing.componentByCode(LOAD_BALANCER_COMPONENT);
    return this.db.transaction(async (tx) => {
      const customer = await customerQuotaLock.lock(tx, customerId);
      if (!customer || !customer.isActive) throw new NotFoundError('Customer');
      await this.billable.assertMayStart(tx, customerId);
      if (!(await activeLocations.isActive(tx, input.location_id))) throw new ValidationError('Validation failed', [{ field: 'location_id', message: 'no active location with this id' }]);
      if ((await this.repo.countLive(tx, customerId)) >= customer.loadbalancerLimit) throw new QuotaExceededError(`Load balancer limit reached (${customer.loadbalancerLimit})`);
      await this.checkTargets(tx, customerId, input.location_id, targetIds, { algorithm: input.algorithm, forwardingRules: input.forwarding_rules, targets: targetIds.length });
      const now = this.clock.now();
      const lb = await this.repo.insert(tx, {
        customerId,
        locationId: input.location_id,
        name: input.name.trim(),
        algorithm: input.algorithm,
        forwardingRules: input.forwarding_rules,
        healthCheck,
        status: 'Creating',
        priceKey: componentKey(component.id),
        createdAt: now,
        updatedAt: now,
      });
      await this.repo.addTargets(tx, lb.id, targetIds);
      await this.lifecycle.changed(tx, LOAD_BALANCER_KIND, lb.id);
      noteActivityTarget(lb.uuid);
      return { lb, targetVmIds: targetIds.sort((a, b) => a - b), sync: await this.lifecycle.state(LOAD_BALANCER_KIND, lb.id, tx) };
    });
  }

  async list(customerId: number, p: PageRequest): Promise<Page<LbDetail>> {
    return this.withTargets(await this.repo.list(this.db, { customerId }, p));
  }

  async adminList(f: LbFilter, p: PageRequest): Promise<Page<LbDetail>> {
    return this.withTargets(await this.repo.list(this.db, f, p));
  }

  private async withTargets(page: Page<LoadBalancerRow>): Promise<Page<LbDetail>> {
    const targets = await this.repo.targets(this.db, page.items.map((l) => l.id));
    const states = await this.lifecycle.states(LOAD_BALANCER_KIND, page.items.map((l) => l.id));
    return {
      total: page.total,
      items: page.items.map((lb) => ({ lb, targetVmIds: targets.filter((x) => x.loadBalancerId === lb.id).map((x) => x.vmId), sync: states.get(lb.id) ?? SYNCED })),
    };
  }

  async get(customerId: number, uuid: string): Promise<LbDetail> {
    const lb = await this.repo.find(this.db, customerId, uuid);
    if (!lb) throw new NotFoundError('Load balancer');
    return this.detail(this.db, lb);
  }

  private async detail(ex: Executor, lb: LoadBalancerRow): Promise<LbDetail> {
    return { lb, targetVmIds: (await this.repo.targets(ex, [lb.id])).map((x) => x.vmId), sync: await this.lifecycle.state(LOAD_BALANCER_KIND, lb.id, ex) };
  }

  private async locked(tx: Executor, customerId: number, uuid: string): Promise<LoadBalancerRow> {
    const lb = await this.repo.find(tx, customerId, uuid, true);
    if (!lb) throw new NotFoundError('Load balancer');
    if (lb.status === 'Deleting') throw new ConflictError('The load balancer is being deleted', 'INVALID_STATE');
    return lb;
  }

  async update(customerId: number, uuid: string, input: UpdateLbInput): Promise<LbDetail> {
    const errors: FieldError[] = [];
    if (input.forwarding_rules) checkRules(input.forwarding_rules, errors);
    const healthCheck = input.health_check !== undefined ? healthCheckOf(input.health_check, errors) : undefined;
    if (input.name !== undefined && input.name.trim().length === 0) errors.push({ field: 'name', message: 'must not be blank' });
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    return this.db.transaction(async (tx) => {
      const lb = await this.locked(tx, customerId, uuid);
      const targets = (await this.repo.targets(tx, [lb.id])).map((x) => x.vmId);
      const shape = { algorithm: input.algorithm ?? lb.algorithm, forwardingRules: input.forwarding_rules ?? lb.forwardingRules, targets: targets.length };
      await this.checkTargets(tx, customerId, lb.locationId, targets, shape);
      const row = await this.changed(tx, lb, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.algorithm !== undefined ? { algorithm: input.algorithm } : {}),
        ...(input.forwarding_rules !== undefined ? { forwardingRules: input.forwarding_rules } : {}),
        ...(healthCheck !== undefined ? { healthCheck } : {}),
      });
      return this.detail(tx, row);
    });
  }

  async addTargets(customerId: number, uuid: string, vmIds: number[]): Promise<LbDetail> {
    return this.db.transaction(async (tx) => {
      const lb = await this.locked(tx, customerId, uuid);
      const current = (await this.repo.targets(tx, [lb.id])).map((x) => x.vmId);
      const all = [...new Set([...current, ...vmIds])];
      await this.checkTargets(tx, customerId, lb.locationId, all, { algorithm: lb.algorithm, forwardingRules: lb.forwardingRules, targets: all.length });
      const row = (await this.repo.addTargets(tx, lb.id, vmIds)) > 0 ? await this.changed(tx, lb) : lb;
      return this.detail(tx, row);
    });
  }

  async removeTarget(customerId: number, uuid: string, vmId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const lb = await this.locked(tx, customerId, uuid);
      if (!(await this.repo.removeTarget(tx, lb.id, vmId))) throw new NotFoundError('Target');
      await this.changed(tx, lb);
    });
  }

  async delete(customerId: number, uuid: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const lb = await this.locked(tx, customerId, uuid);
      await this.changed(tx, lb, { status: 'Deleting' });
    });
  }

  /** Compute's VmDeletedListener: the balancers the VM was a target of are applied again without it. */
  async vmDeleted(tx: Executor, vmId: number): Promise<void> {
    for (const lb of await this.repo.balancersOfVm(tx, vmId)) await this.changed(tx, lb);
  }

  classify(err: unknown): FailureKind | undefined {
    return err instanceof BalancerError ? 'retry' : undefined;
  }

  /** The lifecycle's apply: the current desired state, or removal of a Deleting balancer (→ Deleted). */
  async apply(id: number): Promise<Applied | void> {
    const lb = await this.repo.findById(this.db, id);
    if (!lb || lb.status === 'Deleted') return;
    const reference = `lb-${lb.uuid}`;
    if (lb.status === 'Deleting') {
      await this.balancers.deleteLoadBalancer(reference);
      return {
        record: async (tx) => {
          const now = this.clock.now();
          await this.repo.update(tx, lb.id, { status: 'Deleted', deletedAt: now, updatedAt: now });
          await this.metering.close('load_balancer', lb.id, now, { tx });
        },
      };
    }
    const targets = (await this.repo.targets(this.db, [lb.id])).map((x) => `vm-${x.vmId}`);
    const made = await this.balancers.applyLoadBalancer({
      reference,
      locationId: lb.locationId,
      algorithm: lb.algorithm,
      forwardingRules: lb.forwardingRules.map((r) => ({ entryProtocol: r.entry_protocol, entryPort: r.entry_port, targetProtocol: r.target_protocol, targetPort: r.target_port })),
      healthCheck: lb.healthCheck ? { protocol: lb.healthCheck.protocol, port: lb.healthCheck.port, path: lb.healthCheck.path } : null,
      targets,
    });
    return {
      record: async (tx) => {
        const active = await this.repo.update(tx, id, { status: 'Active', address: made.address, externalId: made.externalId });
        // opening an open meter is a no-op: every apply of an Active balancer may tell it
        await this.metering.open({ customerId: active.customerId, resourceType: 'load_balancer', resourceId: active.id, description: `Load balancer ${active.name}`, priceKey: active.priceKey, locationId: active.locationId, at: this.clock.now() }, tx);
      },
    };
  }

  /** A balancer the datacenter refused to create shows Error until a retry makes it Active. */
  async failed(tx: Executor, id: number, _failure: Failure): Promise<void> {
    const lb = await this.repo.findById(tx, id);
    if (lb?.status === 'Creating') await this.repo.update(tx, id, { status: 'Error' });
  }
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.field}:${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

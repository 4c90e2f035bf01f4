import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, NotFoundError } from '../../platform/errors.js';
import type { Lifecycle } from '../../platform/lifecycle/index.js';
import { Decimal, dec } from '../../platform/money.js';
import { tierKey, type PricingService } from '../pricing/index.js';
import type { Tier, TiersService } from '../tiers/index.js';
import type { BillableStartRule } from '../charging/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import { vmPriceItems } from './compute.pricing.js';
import { VmStateError, type VmWithSync } from './compute.service.js';
import { VM_KIND } from './compute.tables.js';

/** One side of a resize: a tier and what the VM costs on it in its location, now. */
export interface ResizeSide {
  tier: Tier;
  monthly: Decimal;
  hourly: Decimal;
}

export interface ResizePreview {
  vm: Vm;
  current: ResizeSide;
  next: ResizeSide;
  /** the VM is Running: the resize shuts it down and starts it again */
  restart: boolean;
  /** the disk the VM ends with (it never shrinks) */
  diskGb: number;
}

/**
 * Moves a VM to another tier of its location (docs/api.md, "Resizing a VM"). The request checks,
 * prices and writes the intent (task `resize`, the tier it becomes, the status it ends in); the VM
 * lifecycle's job changes the machine and, when the datacenter is done, the tier, the size and the
 * meters (vm-resize.apply.ts).
 */
export class VmResizeService {
  constructor(
    private readonly db: Database,
    private readonly repo: ComputeRepository,
    private readonly tiers: TiersService,
    private readonly pricing: PricingService,
    private readonly billable: BillableStartRule,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
  ) {}

  /** GET /api/compute/vm/{id}/resize-preview?tier_id=: the old and the new price, before anything is asked. */
  async preview(customerId: number, vmId: number, tierId: number): Promise<ResizePreview> {
    return this.decide(this.db, await this.vmOf(this.db, customerId, vmId), tierId);
  }

  /** POST /api/compute/vm/{id}/resize */
  async resize(customerId: number, vmId: number, tierId: number): Promise<VmWithSync & { restart: boolean }> {
    return this.db.transaction(async (tx) => {
      const vm = await this.vmOf(tx, customerId, vmId, true);
      const plan = await this.decide(tx, vm, tierId);
      if (vm.task || (vm.status !== 'Running' && vm.status !== 'Stopped')) throw new VmStateError(vm, 'be resized');
      // paying more is starting something billable; paying less or the same never is
      if (plan.next.monthly.gt(plan.current.monthly)) await this.billable.assertMayStart(tx, customerId);
      const row = (await this.repo.update(tx, vm.id, { task: 'resize', resizeTierId: plan.next.tier.id, resizeFromStatus: vm.status, updatedAt: this.clock.now() }))!;
      await this.lifecycle.changed(tx, VM_KIND, vm.id);
      return { ...row, sync: await this.lifecycle.state(VM_KIND, vm.id, tx), restart: plan.restart };
    });
  }

  private async vmOf(ex: Executor, customerId: number, vmId: number, forUpdate = false): Promise<Vm> {
    const vm = await this.repo.find(ex, vmId, { forUpdate });
    if (!vm || vm.customerId !== customerId || vm.status === 'Deleted') throw new NotFoundError('VM');
    return vm;
  }

  /** The tier checked (offered in the VM's location, another one, a disk at least as large) and both prices. */
  private async decide(ex: Executor, vm: Vm, tierId: number): Promise<ResizePreview> {
    const now = this.clock.now();
    const tier = await this.tiers.find(tierId, ex);
    const offered = tier && !tier.deletedAt && tier.isVisible && (tier.locationId === null || tier.locationId === vm.locationId);
    if (!tier || !offered || !(await this.pricing.priceAt(tierKey(tier.id), vm.locationId, now, ex))) {
      throw new BadRequestError('TIER_UNAVAILABLE', "This tier is not offered in the VM's location", [{ field: 'tier_id', message: 'not offered here' }]);
    }
    if (tier.id === vm.tierId) throw new BadRequestError('TIER_UNCHANGED', 'The VM already has this tier', [{ field: 'tier_id', message: 'the current tier' }]);
    if (tier.diskGb < vm.diskGb) {
      throw new BadRequestError('DISK_CANNOT_SHRINK', `A disk only grows: this tier has ${tier.diskGb} GB, the VM has ${vm.diskGb} GB`, [{ field: 'tier_id', message: `a disk of at least ${vm.diskGb} GB` }]);
    }
    const current = (await this.tiers.find(vm.tierId, ex))!;
    return { vm, current: await this.priceOn(ex, vm, current), next: await this.priceOn(ex, vm, tier), restart: vm.status === 'Running', diskGb: Math.max(vm.diskGb, tier.diskGb) };
  }

  /** What the VM costs on `tier`: its package, its public IP (the tier's own price, else the location's) and its volume, as the meters charge them. */
  private async priceOn(ex: Executor, vm: Vm, tier: Tier): Promise<ResizeSide> {
    const ip = await this.pricing.componentByCode('public_ip', ex);
    const items = vmPriceItems({ ...vm, tierId: tier.id }, ip.id);
    const prices = await this.pricing.pricesAt(items.flatMap((i) => (i.fallbackKey ? [i.priceKey, i.fallbackKey] : [i.priceKey])), vm.locationId, this.clock.now(), ex);
    let monthly = new Decimal(0);
    let hourly = new Decimal(0);
    for (const item of items) {
      const p = prices.get(item.priceKey) ?? (item.fallbackKey ? prices.get(item.fallbackKey) : undefined);
      if (!p) continue;
      monthly = monthly.plus(dec(p.monthlyPrice).times(item.quantity));
      hourly = hourly.plus(dec(p.hourlyPrice).times(item.quantity));
    }
    return { tier, monthly, hourly };
  }
}

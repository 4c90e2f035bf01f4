import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js';
import { Decimal, hourlyOf, isMoneyInput, moneyInputRule } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { BlockStorageService } from '../block-storage/index.js';
import type { TiersService } from '../tiers/index.js';
import { componentKey, parseKey, storageTierKey, TIER_OWN_PRICE_COMPONENTS, tierComponentKey, tierComponentPrefix, tierKey } from './pricing.keys.js';
import { type RevenueImpact, scheduleView } from './pricing.present.js';
import { seedPricing } from './pricing.seed.js';
import type { PricedResourcesReader } from './pricing.ports.js';
import type { Component, PriceSchedule, PriceVersion, PricingRepository, ScheduleStatus } from './pricing.repository.js';

/** What a price (change) is for: its price key in a location, and the item it names. */
interface PriceTarget {
  priceKey: string;
  /** null: every active location (a tier's price wherever it is offered) */
  locationId: number | null;
  componentId?: number;
  tierId?: number;
  storageTierId?: number;
}

const SCHEDULE_EXISTS = 'A price change for this item and location is already scheduled at this instant';

/** A price in force, with the component (and the tier or storage tier) it prices. */
export interface PriceInForce {
  version: PriceVersion;
  componentId: number;
  tierId?: number;
  storageTierId?: number;
}

export interface ScheduleInput {
  monthly_price: number;
  effective_date: string;
}

/**
 * Components, prices and scheduled price changes (docs/api.md, "Catalog, prices and compute"). Every price is an immutable row of
 * price_versions; a change is a schedule that becomes a new version when its date comes
 * (pricing.apply-schedules, exactly once however many workers run it).
 */
export class PricingService {
  readonly applyJob = defineJob<object>({
    name: 'pricing.apply-schedules',
    schedule: '* * * * *',
    description: 'Applies waiting price schedules whose effective date has come (each once: a new price version)',
    handler: async (_p, ctx) => {
      const n = await this.applyDue();
      if (n > 0) ctx.log.info({ applied: n }, 'price schedules applied');
    },
  });


  constructor(
    private readonly db: Database,
    private readonly repo: PricingRepository,
    private readonly tiers: TiersService,
    private readonly blockStorage: BlockStorageService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    /** what runs where, for the revenue impact of a price change (compute and networks) */
    private readonly resources: PricedResourcesReader,
  ) {}

  components() {
    return this.repo.listComponents(this.db);
  }

  async componentByCode(code: string, ex: Executor = this.db): Promise<Component> {
    const c = await this.repo.componentByCode(ex, code);
    if (!c) throw new Error(`component ${code} is missing: run the seed`);
    return c;
  }

  /** Versions in force at `at` (default now) for these keys in a location, by key. */
  async pricesAt(keys: string[], locationId: number, at: Date = this.clock.now(), ex: Executor = this.db): Promise<Map<string, PriceVersion>> {
    const rows = await this.repo.inForce(ex, at, { keys, locationId });
    return new Map(rows.map((r) => [r.priceKey, r]));
  }

  /** The version in force for one key at `at`; undefined when it has no price there. */
  async priceAt(priceKey: string, locationId: number, at: Date = this.clock.now(), ex: Executor = this.db): Promise<PriceVersion | undefined> {
    return (await this.pricesAt([priceKey], locationId, at, ex)).get(priceKey);
  }

  /** GET /pricing/location/{id}: the component prices in force there now. */
  async locationPrices(locationId: number): Promise<PriceInForce[]> {
    if (!(await this.repo.location(this.db, locationId))) throw new NotFoundError('Location');
    const rows = await this.repo.inForce(this.db, this.clock.now(), { keyPrefix: 'component:', locationId });
    return rows.map((version) => ({ version, componentId: Number(version.priceKey.slice('component:'.length)) }));
  }

  /**
   * GET /pricing/tiers/{id}: the tier's own prices in force now in each location: its package
   * (the `vm_tier` component) and every component it prices itself (a cheaper public IP), each
   * row naming its component.
   */
  async tierPrices(tierId: number): Promise<PriceInForce[]> {
    if (!(await this.tiers.find(tierId))) throw new NotFoundError('Tier');
    const now = this.clock.now();
    const pkg = await this.componentByCode('vm_tier');
    const own = await this.repo.inForce(this.db, now, { keys: [tierKey(tierId)] });
    const components = await this.repo.inForce(this.db, now, { keyPrefix: tierComponentPrefix(tierId) });
    return [
      ...own.map((version): PriceInForce => ({ version, tierId, componentId: pkg.id })),
      ...components.flatMap((version): PriceInForce[] => {
        const key = parseKey(version.priceKey);
        return key?.kind === 'tier_component' ? [{ version, tierId, componentId: key.componentId }] : [];
      }),
    ].sort((a, b) => a.version.locationId - b.version.locationId || a.componentId - b.componentId);
  }

  /** The block storage tiers' prices (per GB-month) in force now. */
  async storageTierPrices(): Promise<PriceInForce[]> {
    const perGb = await this.componentByCode('block_storage_gb');
    const rows = await this.repo.inForce(this.db, this.clock.now(), { keyPrefix: 'storage_tier:' });
    return rows.map((version) => ({ version, storageTierId: Number(version.priceKey.slice('storage_tier:'.length)), componentId: perGb.id }));
  }

  private checkInput(input: ScheduleInput): { monthly: string; hourly: string; effective: Date } {
    if (!isMoneyInput(input.monthly_price, false)) {
      throw new BadRequestError('VALIDATION_FAILED', 'Invalid price', [{ field: 'monthly_price', message: moneyInputRule(false) }]);
    }
    const effective = new Date(input.effective_date);
    if (effective.getTime() < this.clock.now().getTime()) {
      throw new BadRequestError('VALIDATION_FAILED', 'The effective date is in the past', [{ field: 'effective_date', message: 'must not be in the past' }]);
    }
    const monthly = new Decimal(input.monthly_price).toFixed(2);
    return { monthly, hourly: hourlyOf(monthly), effective };
  }

  private async location(id: number, ex: Executor) {
    if (!(await this.repo.location(ex, id))) throw new BadRequestError('VALIDATION_FAILED', 'Unknown location', [{ field: 'location_id', message: 'no such location' }]);
  }

  /** POST /pricing/update-loc */
  async scheduleComponent(actor: Actor, input: ScheduleInput & { location_id: number; component_id: number }): Promise<PriceSchedule> {
    const checked = this.checkInput(input);
    return this.insert(actor, await this.componentTarget(input), checked);
  }

  /**
   * POST /pricing/update-tier: the tier's own price of a component wherever the tier is offered
   * (its own location when it is bound to one, else every active location when the change
   * applies), or in the one location named. Without `component_id`, or with
   * the `vm_tier` component, it is the tier's package price (`tier:<id>`); any other component
   * gets the tier's own price of it (`tier:<id>:component:<id>`), which takes precedence over the
   * location's price of the component for the VMs on the tier.
   */
  async scheduleTier(actor: Actor, input: ScheduleInput & { tier_id: number; location_id?: number; component_id?: number }): Promise<PriceSchedule> {
    const checked = this.checkInput(input);
    return this.insert(actor, await this.tierTarget(input), checked);
  }

  /** POST /pricing/update-storage-tier: a block storage tier's price per GB-month in a location. */
  async scheduleStorageTier(actor: Actor, input: ScheduleInput & { storage_tier_id: number; location_id: number }): Promise<PriceSchedule> {
    const checked = this.checkInput(input);
    return this.insert(actor, await this.storageTierTarget(input), checked);
  }

  /**
   * GET /pricing/preview: what a price change would do to monthly revenue, checked like the
   * schedule it previews (the same item rules, a price, a date not in the past) and saved nowhere.
   */
  async preview(input: { monthly_price: number; effective_date?: string; location_id?: number; component_id?: number; tier_id?: number; storage_tier_id?: number }) {
    const effective = input.effective_date ?? this.clock.now().toISOString();
    const checked = this.checkInput({ monthly_price: input.monthly_price, effective_date: effective });
    let target: PriceTarget;
    if (input.storage_tier_id !== undefined) {
      if (input.location_id === undefined) throw new BadRequestError('VALIDATION_FAILED', 'Name the location', [{ field: 'location_id', message: 'required for a storage tier' }]);
      target = await this.storageTierTarget({ storage_tier_id: input.storage_tier_id, location_id: input.location_id });
    } else if (input.tier_id !== undefined) {
      target = await this.tierTarget({ tier_id: input.tier_id, location_id: input.location_id, component_id: input.component_id });
    } else {
      if (input.location_id === undefined || input.component_id === undefined) {
        throw new BadRequestError('VALIDATION_FAILED', 'Name what is priced', [{ field: 'component_id', message: 'send location_id and component_id, tier_id, or storage_tier_id and location_id' }]);
      }
      target = await this.componentTarget({ location_id: input.location_id, component_id: input.component_id });
    }
    return { impact: await this.impactOf(target, checked.monthly), effective: checked.effective };
  }

  private async componentTarget(input: { location_id: number; component_id: number }): Promise<PriceTarget> {
    await this.location(input.location_id, this.db);
    if (!(await this.repo.findComponent(this.db, input.component_id))) {
      throw new BadRequestError('VALIDATION_FAILED', 'Unknown component', [{ field: 'component_id', message: 'no such component' }]);
    }
    return { priceKey: componentKey(input.component_id), locationId: input.location_id, componentId: input.component_id };
  }

  private async tierTarget(input: { tier_id: number; location_id?: number | undefined; component_id?: number | undefined }): Promise<PriceTarget> {
    const tier = await this.tiers.find(input.tier_id);
    if (!tier || tier.deletedAt) throw new BadRequestError('VALIDATION_FAILED', 'Unknown or retired tier', [{ field: 'tier_id', message: 'no such tier' }]);
    const component = input.component_id === undefined ? await this.componentByCode('vm_tier') : await this.repo.findComponent(this.db, input.component_id);
    if (!component) throw new BadRequestError('VALIDATION_FAILED', 'Unknown component', [{ field: 'component_id', message: 'no such component' }]);
    if (component.code !== 'vm_tier' && !TIER_OWN_PRICE_COMPONENTS.includes(component.code)) {
      throw new BadRequestError('VALIDATION_FAILED', 'A tier has its own price only of its package and of what its VMs are metered by besides it', [
        { field: 'component_id', message: `must be the package (vm_tier) or one of: ${TIER_OWN_PRICE_COMPONENTS.join(', ')}; ${component.code} is not charged per tier` },
      ]);
    }
    const locationId = input.location_id ?? tier.locationId;
    if (tier.locationId !== null && tier.locationId !== locationId) {
      throw new BadRequestError('VALIDATION_FAILED', 'The tier is offered only in its own location', [{ field: 'location_id', message: `must be ${tier.locationId}` }]);
    }
    if (locationId !== null) await this.location(locationId, this.db);
    const priceKey = component.code === 'vm_tier' ? tierKey(tier.id) : tierComponentKey(tier.id, component.id);
    return { priceKey, locationId, tierId: tier.id, componentId: component.id };
  }

  private async storageTierTarget(input: { storage_tier_id: number; location_id: number }): Promise<PriceTarget> {
    if (!(await this.blockStorage.findTier(input.storage_tier_id))) {
      throw new BadRequestError('VALIDATION_FAILED', 'Unknown storage tier', [{ field: 'storage_tier_id', message: 'no such storage tier' }]);
    }
    await this.location(input.location_id, this.db);
    const perGb = await this.componentByCode('block_storage_gb');
    return { priceKey: storageTierKey(input.storage_tier_id), locationId: input.location_id, storageTierId: input.storage_tier_id, componentId: perGb.id };
  }

  private async insert(
    actor: Actor,
    target: PriceTarget,
    checked: { monthly: string; hourly: string; effective: Date },
  ): Promise<PriceSchedule> {
    try {
      return await this.db.transaction(async (tx) => {
        // a price for every location and one for a single location at the same instant would leave it to chance which holds there
        if (await this.repo.overlappingSchedule(tx, target.priceKey, target.locationId, checked.effective)) throw new ConflictError(SCHEDULE_EXISTS, 'SCHEDULE_EXISTS');
        const row = await this.repo.insertSchedule(tx, {
          ...target,
          monthlyPrice: checked.monthly,
          hourlyPrice: checked.hourly,
          effectiveDate: checked.effective,
          status: 'waiting',
          createdBy: (actor.type === 'admin' ? actor.id : null),
          createdAt: this.clock.now(),
        });
        await this.audit.record(tx, { actor, action: 'price_schedule.created', targetType: 'price_schedule', targetId: row.id, after: scheduleView(row) });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(SCHEDULE_EXISTS, 'SCHEDULE_EXISTS');
      throw err;
    }
  }

  listSchedules(status: ScheduleStatus | undefined) {
    return this.repo.listSchedules(this.db, status);
  }

  async schedule(id: number): Promise<PriceSchedule> {
    const s = await this.repo.findSchedule(this.db, id);
    if (!s) throw new NotFoundError('Price schedule');
    return s;
  }

  /**
   * DELETE /pricing/cancel/{id}: before its date a waiting schedule is cancelled (it leaves the
   * queue, the row stays for the history); once the date has passed (applied or about to be) 400.
   */
  async cancel(actor: Actor, id: number): Promise<PriceSchedule> {
    return this.db.transaction(async (tx) => {
      const s = await this.repo.findSchedule(tx, id, { forUpdate: true });
      if (!s || s.status === 'cancelled') throw new NotFoundError('Price schedule');
      const now = this.clock.now();
      if (s.status === 'applied' || s.effectiveDate.getTime() <= now.getTime()) {
        throw new BadRequestError('SCHEDULE_ALREADY_APPLIED', 'The effective date has passed: the price change cannot be cancelled');
      }
      const row = (await this.repo.updateSchedule(tx, id, 'waiting', { status: 'cancelled', cancelledAt: now, cancelledBy: (actor.type === 'admin' ? actor.id : null) }))!;
      await this.audit.record(tx, { actor, action: 'price_schedule.cancelled', targetType: 'price_schedule', targetId: id, before: scheduleView(s), after: scheduleView(row) });
      return row;
    });
  }

  /**
   * Applies every waiting schedule whose date has come: a new price_versions row effective from
   * the schedule's date, the schedule marked applied, in one transaction per batch. Rows are
   * locked with SKIP LOCKED and moved by a conditional update, so parallel workers apply each
   * schedule exactly once.
   */
  async applyDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const now = this.clock.now();
        const due = await this.repo.lockDue(tx, now, 100);
        let applied = 0;
        for (const s of due) {
          const where = s.locationId !== null ? [s.locationId] : await this.activeLocationIds(tx);
          let first: number | null = null;
          for (const locationId of where) {
            const version = await this.repo.insertVersion(tx, {
              priceKey: s.priceKey,
              locationId,
              monthlyPrice: s.monthlyPrice,
              hourlyPrice: s.hourlyPrice,
              effectiveFrom: s.effectiveDate,
            });
            first ??= version.id;
          }
          const done = await this.repo.updateSchedule(tx, s.id, 'waiting', { status: 'applied', appliedAt: now, priceVersionId: first });
          if (!done) throw new Error(`price schedule ${s.id} changed under its lock`);
          applied++;
        }
        return applied;
      });
      total += n;
      if (n < 100) return total;
    }
  }

  private async activeLocationIds(ex: Executor): Promise<number[]> {
    return (await this.repo.listLocations(ex)).filter((l) => l.isActive).map((l) => l.id);
  }

  /**
   * What a schedule would do to monthly revenue: the running resources of its location priced by
   * its key, and the monthly revenue of that location's running resources at today's prices
   * before and with the new price.
   */
  async impact(id: number): Promise<{ schedule: PriceSchedule; impact: RevenueImpact }> {
    const schedule = await this.schedule(id);
    return { schedule, impact: await this.impactOf({ priceKey: schedule.priceKey, locationId: schedule.locationId }, schedule.monthlyPrice) };
  }

  /**
   * The running resources of the target's location priced by its key, and the monthly revenue of
   * that location's running resources at today's prices before and with the new price.
   */
  private async impactOf(target: { priceKey: string; locationId: number | null }, monthlyPrice: string): Promise<RevenueImpact> {
    if (target.locationId !== null) return this.impactIn({ priceKey: target.priceKey, locationId: target.locationId }, monthlyPrice);
    // a price for every location: the sum of each location's figures
    const each = await Promise.all((await this.activeLocationIds(this.db)).map((locationId) => this.impactIn({ priceKey: target.priceKey, locationId }, monthlyPrice)));
    const prices = new Set(each.flatMap((i) => (i.currentMonthlyPrice !== undefined ? [new Decimal(i.currentMonthlyPrice).toFixed(2)] : [])));
    return {
      priceKey: target.priceKey,
      locationId: null,
      currentMonthlyPrice: prices.size === 1 ? [...prices][0] : undefined,
      newMonthlyPrice: monthlyPrice,
      affectedResources: each.reduce((n, i) => n + i.affectedResources, 0),
      affectedQuantity: each.reduce((n, i) => n.plus(i.affectedQuantity), new Decimal(0)),
      runningResources: each.reduce((n, i) => n + i.runningResources, 0),
      before: each.reduce((n, i) => n.plus(i.before), new Decimal(0)),
      after: each.reduce((n, i) => n.plus(i.after), new Decimal(0)),
    };
  }

  private async impactIn(target: { priceKey: string; locationId: number }, monthlyPrice: string): Promise<RevenueImpact> {
    const resources = await this.resources.runningIn(target.locationId);
    // a tier's own price of a component replaces the location's one, which is what its VMs pay until then
    const parsed = parseKey(target.priceKey);
    const targetFallback = parsed?.kind === 'tier_component' ? componentKey(parsed.componentId) : undefined;
    const keys = [
      ...new Set(
        resources
          .flatMap((r) => r.items.flatMap((i) => (i.fallbackKey ? [i.priceKey, i.fallbackKey] : [i.priceKey])))
          .concat(targetFallback ? [target.priceKey, targetFallback] : [target.priceKey]),
      ),
    ];
    const prices = await this.pricesAt(keys, target.locationId);
    const current = prices.get(target.priceKey) ?? (targetFallback ? prices.get(targetFallback) : undefined);
    let before = new Decimal(0);
    let after = new Decimal(0);
    let affected = 0;
    let quantity = new Decimal(0);
    for (const r of resources) {
      let touched = false;
      for (const item of r.items) {
        // an item is priced by its own key while it has a price, else by its fallback
        const own = prices.get(item.priceKey);
        const pricedBy = own || !item.fallbackKey ? item.priceKey : item.fallbackKey;
        const price = prices.get(pricedBy);
        const old = new Decimal(price?.monthlyPrice ?? 0).times(item.quantity);
        before = before.plus(old);
        if (item.priceKey === target.priceKey || pricedBy === target.priceKey) {
          touched = true;
          quantity = quantity.plus(item.quantity);
          after = after.plus(new Decimal(monthlyPrice).times(item.quantity));
        } else {
          after = after.plus(old);
        }
      }
      if (touched) affected++;
    }
    return {
      priceKey: target.priceKey,
      locationId: target.locationId,
      currentMonthlyPrice: current?.monthlyPrice,
      newMonthlyPrice: monthlyPrice,
      affectedResources: affected,
      affectedQuantity: quantity,
      runningResources: resources.length,
      before,
      after,
    };
  }

  /** Components, and first prices for what has none yet (pricing.seed.ts). */
  seed(tiers: { id: number; cpu: number; memoryMb: number }[], storageTierIds: number[]): Promise<void> {
    return seedPricing(this.db, this.repo, tiers, storageTierIds);
  }
}

import type { Database, Executor } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import type { Metering } from '../../platform/metering.js';
import { dec, type MoneyInput } from '../../platform/money.js';
import type { ChargingRepository } from './charging.repository.js';

const HOUR = 3_600_000;

/**
 * The largest quantity a meter counts (GB of a volume or a bucket, ...): above every size a
 * resource may have, and small enough that the largest hourly price (MONEY_INPUT_MAX / 730) times
 * it fits one usage record (NUMERIC(20,6)); test/charging/bounds.test.ts checks it. The meters table checks it too.
 */
export const METER_QUANTITY_MAX = 1_000_000;

export type ResourceType = 'vm' | 'public_ip' | 'block_storage' | 'network' | 'bucket' | 'load_balancer' | (string & {});

export interface OpenMeter {
  customerId: number;
  resourceType: ResourceType;
  resourceId: string | number;
  /** shown on invoices: "VM web-1 (Small, 2 vCPU)" */
  description: string;
  /** a price_versions key: tier:<id>, component:<id>, storage_tier:<id>, tier:<id>:component:<id> */
  priceKey: string;
  /** the key charged while `priceKey` has no price in force (a tier's own component price falls back on the location's) */
  fallbackPriceKey?: string;
  locationId: number;
  /** units of the price (default 1): GB for storage, ... */
  quantity?: MoneyInput;
  /** when the resource started costing money (the caller's clock) */
  at: Date;
}

/**
 * The `Metering` port resource modules use (compute, networks, load balancers, object storage):
 * open a meter when something starts costing money, close it when it stops, inside their own
 * transaction (the ambient transaction carries these queries). Opening an already open meter (same resource and price key) is a no-op.
 * A resource with several prices (a VM's tier and its extra disk) opens one meter per price key.
 */
export class MeteringService implements Metering {
  constructor(
    private readonly db: Database,
    private readonly repo: ChargingRepository,
  ) {}

  async open(m: OpenMeter, tx: Executor = this.db): Promise<{ meterId: number; created: boolean }> {
    const quantity = dec(m.quantity ?? 1);
    if (!quantity.isFinite() || quantity.lte(0) || quantity.decimalPlaces() > 6 || quantity.gt(METER_QUANTITY_MAX)) {
      throw new ValidationError(`A meter needs a positive quantity with at most 6 decimals, at most ${METER_QUANTITY_MAX}`);
    }
    const startedAt = await this.notBeforeCharged(tx, m.at);
    const r = await this.repo.openMeter(tx, {
      customerId: m.customerId,
      resourceType: m.resourceType,
      resourceId: String(m.resourceId),
      description: m.description,
      priceKey: m.priceKey,
      fallbackPriceKey: m.fallbackPriceKey ?? null,
      locationId: m.locationId,
      quantity: quantity.toFixed(6),
      startedAt,
    });
    return { meterId: r.id, created: r.created };
  }

  /** Closes the resource's open meters (or only the one of `priceKey`); answers how many. */
  async close(resourceType: ResourceType, resourceId: string | number, at: Date, opts: { priceKey?: string; tx?: Executor } = {}): Promise<number> {
    const ex = opts.tx ?? this.db;
    return this.repo.closeMeters(ex, resourceType, String(resourceId), await this.notBeforeCharged(ex, at), opts.priceKey);
  }

  /**
   * Hours the job has started charging are final: a meter stamped inside one (a caller's clock
   * behind, a transaction that committed after the job ran) starts or stops at its end instead.
   */
  private async notBeforeCharged(ex: Executor, at: Date): Promise<Date> {
    const latest = await this.repo.latestHour(ex);
    if (!latest) return at;
    const charged = new Date(latest.hour.getTime() + HOUR);
    return at.getTime() < charged.getTime() ? charged : at;
  }
}

import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { dec, type Decimal } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { DashboardRepository, MoneyMetric, MonthRow, SourceRow, VmGroupBy } from './dashboard.repository.js';

/** How many public addresses a location's pool has (deployment configuration of the datacenter). */
export type PublicIpPoolSize = (locationId: number) => number;

export interface DashboardOptions {
  /** IANA zone of the platform's calendar (PLATFORM_TIME_ZONE) */
  timeZone: string;
  currency: string;
}

/** The dashboard's headline numbers about customers, wallets and VMs. */
export interface CustomerInsight {
  registeredCustomers: number;
  activeCustomers: number;
  activeWalletBalance: Decimal;
  activeWalletActualBalance: Decimal;
  activeVms: number;
  totalVms: number;
  customersDepositedThisMonth: number;
  /** YYYY-MM of now in the platform's time zone */
  month: string;
  timeZone: string;
  currency: string;
}

/** An amount of money over all time, the last 12 months and this month, by source and by month. */
export interface MoneyTrend {
  currency: string;
  timeZone: string;
  total: Decimal;
  count: number;
  last12MonthsTotal: Decimal;
  last12MonthsCount: number;
  thisMonthTotal: Decimal;
  thisMonthCount: number;
  sources: SourceRow[];
  trend: MonthRow[];
}

export interface VmDistribution {
  groupBy: VmGroupBy;
  locationId: number | null;
  total: number;
  /** the RAM in MB, the vCPUs or the OS, with how many VMs have it */
  items: { key: string; count: number }[];
}

export interface LocationIpOccupation {
  locationId: number;
  locationCode: string;
  locationName: string;
  total: number;
  rented: number;
  available: number;
  occupationPercent: number;
}

export interface IpOccupation {
  total: number;
  rented: number;
  available: number;
  occupationPercent: number;
  locations: LocationIpOccupation[];
}

/** The backoffice dashboard (docs/api.md, "Dashboard"): read-only aggregates from counters, hourly totals and the ledger. */
export class DashboardService {
  constructor(
    private readonly db: Database,
    private readonly repo: DashboardRepository,
    private readonly poolSize: PublicIpPoolSize,
    private readonly clock: Clock,
    private readonly opts: DashboardOptions,
  ) {}

  async customerInsight(): Promise<CustomerInsight> {
    const now = this.clock.now();
    const counters = await this.repo.counters(this.db, ['customers.registered', 'customers.active', 'wallets.active_current', 'wallets.active_actual', 'vms.alive', 'vms.running']);
    const sum = (name: string) => counters.filter((c) => c.name === name).reduce((t, c) => t.plus(c.value), dec(0));
    return {
      registeredCustomers: sum('customers.registered').toNumber(),
      activeCustomers: sum('customers.active').toNumber(),
      activeWalletBalance: sum('wallets.active_current'),
      activeWalletActualBalance: sum('wallets.active_actual'),
      activeVms: sum('vms.running').toNumber(),
      totalVms: sum('vms.alive').toNumber(),
      customersDepositedThisMonth: await this.repo.depositorsInMonth(this.db, now, this.opts.timeZone),
      month: monthOf(now, this.opts.timeZone),
      timeZone: this.opts.timeZone,
      currency: this.opts.currency,
    };
  }

  /** What the platform earned, and apart from it the payment fees it collected for the gateways. */
  async revenue(): Promise<{ earned: MoneyTrend; gatewayFees: MoneyTrend }> {
    const [earned, gatewayFees] = await Promise.all([this.moneyTrend('revenue'), this.moneyTrend('gateway_fee')]);
    return { earned, gatewayFees };
  }

  deposits(): Promise<MoneyTrend> {
    return this.moneyTrend('deposit');
  }

  private async moneyTrend(metric: MoneyMetric): Promise<MoneyTrend> {
    const now = this.clock.now();
    const trend = await this.repo.monthlyTrend(this.db, metric, now, this.opts.timeZone);
    const sources = await this.repo.totalsBySource(this.db, metric);
    const thisMonth = trend[trend.length - 1]!;
    return {
      currency: this.opts.currency,
      timeZone: this.opts.timeZone,
      total: sources.reduce((sum, s) => sum.plus(s.amount), dec(0)),
      count: sources.reduce((n, s) => n + s.entries, 0),
      last12MonthsTotal: trend.reduce((sum, m) => sum.plus(m.amount), dec(0)),
      last12MonthsCount: trend.reduce((n, m) => n + m.entries, 0),
      thisMonthTotal: dec(thisMonth.amount),
      thisMonthCount: thisMonth.entries,
      sources,
      trend,
    };
  }

  async vmDistribution(groupBy: VmGroupBy, locationId: number | undefined): Promise<VmDistribution> {
    const counters = (await this.repo.counters(this.db, [`vms.${groupBy}`])).filter((c) => locationId === undefined || c.location_id === locationId);
    const byKey = new Map<string, number>();
    for (const c of counters) byKey.set(c.key, (byKey.get(c.key) ?? 0) + Number(c.value));
    const keys = [...byKey.keys()].filter((k) => byKey.get(k)! > 0);
    keys.sort(groupBy === 'os' ? (a, b) => (a < b ? -1 : a > b ? 1 : 0) : (a, b) => Number(a) - Number(b));
    return {
      groupBy,
      locationId: locationId ?? null,
      total: keys.reduce((n, k) => n + byKey.get(k)!, 0),
      items: keys.map((key) => ({ key, count: byKey.get(key)! })),
    };
  }

  async ipOccupation(): Promise<IpOccupation> {
    const held = new Map((await this.repo.counters(this.db, ['vms.public_ips'])).map((c) => [c.location_id, Number(c.value)]));
    const rows = await this.repo.locations(this.db, [...held.keys()]);
    const locations = rows.map((r) => {
      const total = this.poolSize(r.id);
      const rented = held.get(r.id) ?? 0;
      return {
        locationId: r.id,
        locationCode: r.code,
        locationName: r.name,
        total,
        rented,
        available: Math.max(0, total - rented),
        occupationPercent: percent(rented, total),
      };
    });
    const total = locations.reduce((n, l) => n + l.total, 0);
    const rented = locations.reduce((n, l) => n + l.rented, 0);
    return { total, rented, available: locations.reduce((n, l) => n + l.available, 0), occupationPercent: percent(rented, total), locations };
  }

  /** The job dashboard.compact-counters: folds the counter deltas in; how many it folded. */
  compactCounters(): Promise<number> {
    return this.repo.compactCounters(this.db);
  }

  readonly compactJob = defineJob<object>({
    name: 'dashboard.compact-counters',
    schedule: '* * * * *',
    description: 'Folds the dashboard counter deltas (customers, wallets, VMs) into their totals, so reading them stays cheap',
    handler: async () => {
      await this.compactCounters();
    },
  });
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

/** YYYY-MM of an instant in a time zone. */
export function monthOf(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

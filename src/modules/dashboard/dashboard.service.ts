import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { dec, moneyJson } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { DashboardRepository, MoneyMetric, VmGroupBy } from './dashboard.repository.js';

/** How many public addresses a location's pool has (deployment configuration of the datacenter). */
export type PublicIpPoolSize = (locationId: number) => number;

export interface DashboardOptions {
  /** IANA zone of the platform's calendar (PLATFORM_TIME_ZONE) */
  timeZone: string;
  currency: string;
}

const RAM_LABEL = (mb: number) => (mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);

/** The backoffice dashboard (spec 4.14): read-only aggregates from counters, hourly totals and the ledger. */
export class DashboardService {
  constructor(
    private readonly db: Database,
    private readonly repo: DashboardRepository,
    private readonly poolSize: PublicIpPoolSize,
    private readonly clock: Clock,
    private readonly opts: DashboardOptions,
  ) {}

  async customerInsight() {
    const now = this.clock.now();
    const counters = await this.repo.counters(this.db, ['customers.registered', 'customers.active', 'wallets.active_current', 'wallets.active_actual', 'vms.alive', 'vms.running']);
    const sum = (name: string) => counters.filter((c) => c.name === name).reduce((t, c) => t.plus(c.value), dec(0));
    return {
      registered_customers: sum('customers.registered').toNumber(),
      active_customers: sum('customers.active').toNumber(),
      total_active_wallet_balance: moneyJson(sum('wallets.active_current')),
      total_active_wallet_actual_balance: moneyJson(sum('wallets.active_actual')),
      active_vms: sum('vms.running').toNumber(),
      total_vms: sum('vms.alive').toNumber(),
      customers_deposited_this_month: await this.repo.depositorsInMonth(this.db, now, this.opts.timeZone),
      month: monthOf(now, this.opts.timeZone),
      time_zone: this.opts.timeZone,
      currency: this.opts.currency,
    };
  }

  revenue() {
    return this.moneyTrend('revenue');
  }

  deposits() {
    return this.moneyTrend('deposit');
  }

  private async moneyTrend(metric: MoneyMetric) {
    const now = this.clock.now();
    const trend = await this.repo.monthlyTrend(this.db, metric, now, this.opts.timeZone);
    const sources = await this.repo.totalsBySource(this.db, metric);
    const last12 = trend.reduce((sum, m) => sum.plus(m.amount), dec(0));
    const thisMonth = trend[trend.length - 1]!;
    const allTime = sources.reduce((sum, s) => sum.plus(s.amount), dec(0));
    return {
      currency: this.opts.currency,
      time_zone: this.opts.timeZone,
      total: moneyJson(allTime),
      count: sources.reduce((n, s) => n + s.entries, 0),
      last_12_months_total: moneyJson(last12),
      last_12_months_count: trend.reduce((n, m) => n + m.entries, 0),
      this_month_total: moneyJson(thisMonth.amount),
      this_month_count: thisMonth.entries,
      sources: sources.map((s) => ({ source: s.source, total: moneyJson(s.amount), count: s.entries })),
      trend: trend.map((m) => ({ month: m.month, total: moneyJson(m.amount), count: m.entries })),
    };
  }

  async vmDistribution(groupBy: VmGroupBy, locationId: number | undefined) {
    const counters = (await this.repo.counters(this.db, [`vms.${groupBy}`])).filter((c) => locationId === undefined || c.location_id === locationId);
    const byKey = new Map<string, number>();
    for (const c of counters) byKey.set(c.key, (byKey.get(c.key) ?? 0) + Number(c.value));
    const keys = [...byKey.keys()].filter((k) => byKey.get(k)! > 0);
    keys.sort(groupBy === 'os' ? (a, b) => (a < b ? -1 : a > b ? 1 : 0) : (a, b) => Number(a) - Number(b));
    return {
      group_by: groupBy,
      location_id: locationId ?? null,
      total: keys.reduce((n, k) => n + byKey.get(k)!, 0),
      items: keys.map((key) => ({
        key,
        label: groupBy === 'ram' ? RAM_LABEL(Number(key)) : groupBy === 'cpu' ? `${key} vCPU` : key,
        count: byKey.get(key)!,
      })),
    };
  }

  async ipOccupation() {
    const held = new Map((await this.repo.counters(this.db, ['vms.public_ips'])).map((c) => [c.location_id, Number(c.value)]));
    const rows = await this.repo.locations(this.db, [...held.keys()]);
    const locations = rows.map((r) => {
      const total = this.poolSize(r.id);
      const rented = held.get(r.id) ?? 0;
      return {
        location_id: r.id,
        location_code: r.code,
        location_name: r.name,
        total,
        rented,
        available: Math.max(0, total - rented),
        occupation_percent: percent(rented, total),
      };
    });
    const total = locations.reduce((n, l) => n + l.total, 0);
    const rented = locations.reduce((n, l) => n + l.rented, 0);
    return { total, rented, available: locations.reduce((n, l) => n + l.available, 0), occupation_percent: percent(rented, total), locations };
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

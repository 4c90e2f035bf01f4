import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { dec, moneyJson } from '../../platform/money.js';
import type { DashboardRepository, MoneyMetric, VmGroupBy } from './dashboard.repository.js';

/** How many public addresses a location's pool has (deployment configuration of the datacenter). */
export type PublicIpPoolSize = (locationId: number) => number;

export interface DashboardOptions {
  /** IANA zone of the platform's calendar (PLATFORM_TIME_ZONE) */
  timeZone: string;
  currency: string;
}

const RAM_LABEL = (mb: number) => (mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);

/** The backoffice dashboard (spec 4.14): read-only aggregates, each computed by one SQL statement. */
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
    const r = await this.repo.customerInsight(this.db, now, this.opts.timeZone);
    return {
      registered_customers: r.registered,
      active_customers: r.active_customers,
      total_active_wallet_balance: moneyJson(r.wallet_current),
      total_active_wallet_actual_balance: moneyJson(r.wallet_actual),
      active_vms: r.running_vms,
      total_vms: r.vms,
      customers_deposited_this_month: r.depositors,
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
    const rows = await this.repo.vmDistribution(this.db, groupBy, locationId);
    return {
      group_by: groupBy,
      location_id: locationId ?? null,
      total: rows.reduce((n, r) => n + r.count, 0),
      items: rows.map((r) => ({
        key: r.key,
        label: groupBy === 'ram' ? RAM_LABEL(Number(r.key)) : groupBy === 'cpu' ? `${r.key} vCPU` : r.key,
        count: r.count,
      })),
    };
  }

  async ipOccupation() {
    const rows = await this.repo.publicIpsHeld(this.db);
    const locations = rows.map((r) => {
      const total = this.poolSize(r.location_id);
      return {
        location_id: r.location_id,
        location_code: r.code,
        location_name: r.name,
        total,
        rented: r.rented,
        available: Math.max(0, total - r.rented),
        occupation_percent: percent(r.rented, total),
      };
    });
    const total = locations.reduce((n, l) => n + l.total, 0);
    const rented = locations.reduce((n, l) => n + l.rented, 0);
    return { total, rented, available: locations.reduce((n, l) => n + l.available, 0), occupation_percent: percent(rented, total), locations };
  }
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

/** YYYY-MM of an instant in a time zone. */
export function monthOf(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

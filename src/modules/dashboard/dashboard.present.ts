import { moneyJson } from '../../platform/money.js';
import type { CustomerInsight, IpOccupation, MoneyTrend, VmDistribution } from './dashboard.service.js';

/* The dashboard's answers, mapped in one place. */

export function customerInsightView(i: CustomerInsight) {
  return {
    registered_customers: i.registeredCustomers,
    active_customers: i.activeCustomers,
    total_active_wallet_balance: moneyJson(i.activeWalletBalance),
    total_active_wallet_actual_balance: moneyJson(i.activeWalletActualBalance),
    active_vms: i.activeVms,
    total_vms: i.totalVms,
    customers_deposited_this_month: i.customersDepositedThisMonth,
    month: i.month,
    time_zone: i.timeZone,
    currency: i.currency,
  };
}

export function moneyTrendView(t: MoneyTrend) {
  return {
    currency: t.currency,
    time_zone: t.timeZone,
    total: moneyJson(t.total),
    count: t.count,
    last_12_months_total: moneyJson(t.last12MonthsTotal),
    last_12_months_count: t.last12MonthsCount,
    this_month_total: moneyJson(t.thisMonthTotal),
    this_month_count: t.thisMonthCount,
    sources: t.sources.map((s) => ({ source: s.source, total: moneyJson(s.amount), count: s.entries })),
    trend: t.trend.map((m) => ({ month: m.month, total: moneyJson(m.amount), count: m.entries })),
  };
}

/** The revenue's trend, with the gateway fees collected beside it (never in it). */
export function revenueView(r: { earned: MoneyTrend; gatewayFees: MoneyTrend }) {
  const fees = moneyTrendView(r.gatewayFees);
  return {
    ...moneyTrendView(r.earned),
    gateway_fees: { total: fees.total, count: fees.count, last_12_months_total: fees.last_12_months_total, this_month_total: fees.this_month_total, trend: fees.trend },
  };
}

const ramLabel = (mb: number) => (mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);

export function vmDistributionView(d: VmDistribution) {
  return {
    group_by: d.groupBy,
    location_id: d.locationId,
    total: d.total,
    items: d.items.map(({ key, count }) => ({
      key,
      label: d.groupBy === 'ram' ? ramLabel(Number(key)) : d.groupBy === 'cpu' ? `${key} vCPU` : key,
      count,
    })),
  };
}

export function ipOccupationView(o: IpOccupation) {
  return {
    total: o.total,
    rented: o.rented,
    available: o.available,
    occupation_percent: o.occupationPercent,
    locations: o.locations.map((l) => ({
      location_id: l.locationId,
      location_code: l.locationCode,
      location_name: l.locationName,
      total: l.total,
      rented: l.rented,
      available: l.available,
      occupation_percent: l.occupationPercent,
    })),
  };
}

import { type Decimal, moneyJson, rateJson } from '../../platform/money.js';
import { TIER_OWN_PRICE_COMPONENTS } from './pricing.keys.js';
import type { Component, PriceSchedule, PriceVersion, ScheduleStatus } from './pricing.repository.js';

/* The pricing module's answers: every row the API shows is mapped here, in one place. */

export const componentView = (c: Component) => ({ id: c.id, code: c.code, name: c.name, type: c.type, unit: c.unit, tier_own_price: TIER_OWN_PRICE_COMPONENTS.includes(c.code) });

export function scheduleView(s: PriceSchedule) {
  const kind = s.tierId !== null ? 'tier' : s.storageTierId !== null ? 'storage_tier' : 'component';
  return {
    id: s.id,
    price_key: s.priceKey,
    item_type: kind as 'tier' | 'storage_tier' | 'component',
    component_id: s.componentId,
    tier_id: s.tierId,
    storage_tier_id: s.storageTierId,
    location_id: s.locationId,
    monthly_price: moneyJson(s.monthlyPrice),
    hourly_price: rateJson(s.hourlyPrice),
    effective_date: s.effectiveDate.toISOString(),
    status: s.status as ScheduleStatus,
    created_at: s.createdAt.toISOString(),
    applied_at: s.appliedAt?.toISOString() ?? null,
    cancelled_at: s.cancelledAt?.toISOString() ?? null,
  };
}

export function priceRowView(v: PriceVersion, extra: { component_id?: number | null; tier_id?: number | null; storage_tier_id?: number | null } = {}) {
  return {
    id: v.id,
    price_key: v.priceKey,
    location_id: v.locationId,
    component_id: extra.component_id ?? null,
    tier_id: extra.tier_id ?? null,
    storage_tier_id: extra.storage_tier_id ?? null,
    monthly_price: moneyJson(v.monthlyPrice),
    price_per_hour: rateJson(v.hourlyPrice),
    effective_from: v.effectiveFrom.toISOString(),
  };
}

/** What a price change would do to a location's monthly revenue (the running resources it prices); current price null when the locations differ. */
export interface RevenueImpact {
  priceKey: string;
  /** null: every active location, added up */
  locationId: number | null;
  currentMonthlyPrice: string | undefined;
  newMonthlyPrice: string;
  affectedResources: number;
  affectedQuantity: Decimal;
  runningResources: number;
  before: Decimal;
  after: Decimal;
}

export function revenueImpactView(i: RevenueImpact) {
  return {
    price_key: i.priceKey,
    location_id: i.locationId,
    current_monthly_price: i.currentMonthlyPrice !== undefined ? moneyJson(i.currentMonthlyPrice) : null,
    new_monthly_price: moneyJson(i.newMonthlyPrice),
    affected_resources: i.affectedResources,
    affected_quantity: i.affectedQuantity.toNumber(),
    running_resources: i.runningResources,
    monthly_revenue_before: moneyJson(i.before),
    monthly_revenue_after: moneyJson(i.after),
    monthly_revenue_change: moneyJson(i.after.minus(i.before)),
  };
}

/** GET /pricing/preview: the impact of a change not scheduled, from the date it would take effect. */
export function previewView(i: RevenueImpact, effective: Date) {
  return { ...revenueImpactView(i), effective_date: effective.toISOString() };
}

/** GET /pricing/schedule/{id}/impact */
export function scheduleImpactView(s: PriceSchedule, i: RevenueImpact) {
  return { schedule_id: s.id, ...revenueImpactView(i), status: s.status as ScheduleStatus, effective_date: s.effectiveDate.toISOString() };
}

/** A price in force as the price lists show it (GET /pricing/location/{id}, /pricing/tiers/{id}, the storage tiers'). */
export function priceInForceView(p: { version: PriceVersion; componentId: number; tierId?: number; storageTierId?: number }) {
  return priceRowView(p.version, {
    component_id: p.componentId,
    ...(p.tierId !== undefined ? { tier_id: p.tierId } : {}),
    ...(p.storageTierId !== undefined ? { storage_tier_id: p.storageTierId } : {}),
  });
}

import type { Database } from '../../platform/db/database.js';
import { hourlyOf } from '../../platform/money.js';
import { COMPONENTS, componentKey, defaultTierMonthly, storageTierKey, tierKey } from './pricing.keys.js';
import type { PricingRepository } from './pricing.repository.js';

/** A long-ago instant for the seeded first prices. */
const SEED_EFFECTIVE_FROM = new Date('2020-01-01T00:00:00Z');

/**
 * Components, and first prices for what has none yet (a fresh database): every component in
 * every location, the given tiers and storage tiers in every active location.
 */
export async function seedPricing(db: Database, repo: PricingRepository, tierIds: { id: number; cpu: number; memoryMb: number }[], storageTierIds: number[]): Promise<void> {
  await repo.insertComponents(db, [
    ...COMPONENTS.map(({ code, name, type, unit }) => ({ code, name, type, unit })),
    { code: 'vm_tier', name: 'VM tier package', type: 'compute', unit: 'VM' },
  ]);
  await db.transaction(async (tx) => {
    const locations = await repo.listLocations(tx);
    const comps = await repo.listComponents(tx);
    for (const c of comps) {
      const def = COMPONENTS.find((d) => d.code === c.code);
      if (!def || (await repo.hasAnyVersion(tx, componentKey(c.id)))) continue;
      for (const loc of locations) {
        await repo.insertVersion(tx, { priceKey: componentKey(c.id), locationId: loc.id, monthlyPrice: def.monthly, hourlyPrice: hourlyOf(def.monthly), effectiveFrom: SEED_EFFECTIVE_FROM });
      }
    }
    const active = locations.filter((l) => l.isActive);
    for (const t of tierIds) {
      const monthly = defaultTierMonthly(t);
      for (const loc of active) {
        await repo.insertVersion(tx, { priceKey: tierKey(t.id), locationId: loc.id, monthlyPrice: monthly, hourlyPrice: hourlyOf(monthly), effectiveFrom: SEED_EFFECTIVE_FROM });
      }
    }
    for (const [i, id] of storageTierIds.entries()) {
      const monthly = i === 0 ? '1460.00' : '2920.00';
      for (const loc of active) {
        await repo.insertVersion(tx, { priceKey: storageTierKey(id), locationId: loc.id, monthlyPrice: monthly, hourlyPrice: hourlyOf(monthly), effectiveFrom: SEED_EFFECTIVE_FROM });
      }
    }
  });
}

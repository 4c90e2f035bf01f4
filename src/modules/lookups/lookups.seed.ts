import type { Database } from '../../platform/db/database.js';
import type { LookupsRepository } from './lookups.repository.js';
import { readDistricts, readProvinces, readRegencies } from './area-data.js';

const INDONESIA = 360;

/** "11.01.01" → 110101: the official code is stable, so the id is too. */
const idOf = (code: string) => Number(code.replace(/\./g, ''));

export const DEFAULT_LOCATIONS = [
  { id: 1, code: 'id-jkt-1', name: 'Jakarta 1', countryCode: 'ID', isActive: true },
  { id: 2, code: 'id-sby-1', name: 'Surabaya 1', countryCode: 'ID', isActive: true },
  { id: 3, code: 'sg-sin-1', name: 'Singapore 1', countryCode: 'SG', isActive: false },
];

/**
 * Loads the reference data (countries from i18n-iso-countries, Indonesia's areas from ./data) and
 * the default datacenters. Skips the work when the tables already hold the same number of rows.
 */
export async function seedReferenceData(db: Database, repo: LookupsRepository): Promise<void> {
  // loaded here, not with the module: seeds run once per build, not at every start
  const { default: countriesData } = await import('i18n-iso-countries');
  const [provinceRows, regencyRows, districtRows] = await Promise.all([readProvinces(), readRegencies(), readDistricts()]);
  const numeric = countriesData.getNumericCodes();
  const countryRows = Object.entries(numeric).map(([num, alpha2]) => ({
    id: Number(num),
    code: alpha2,
    name: countriesData.getName(alpha2, 'en') ?? alpha2,
  }));
  const have = await repo.counts(db);
  if (
    have.countries === countryRows.length &&
    have.provinces === provinceRows.length &&
    have.cities === regencyRows.length &&
    have.districts === districtRows.length &&
    have.locations > 0
  ) {
    return;
  }
  await db.transaction(async (tx) => {
    await repo.upsertCountries(tx, countryRows);
    await repo.upsertAreas(tx, 'provinces', provinceRows.map((p) => ({ id: idOf(p.code), parentId: INDONESIA, code: p.code, name: p.name })));
    await repo.upsertAreas(tx, 'cities', regencyRows.map((r) => ({ id: idOf(r.code), parentId: idOf(r.province_code), code: r.code, name: r.name })));
    await repo.upsertAreas(tx, 'districts', districtRows.map((d) => ({ id: idOf(d.code), parentId: idOf(d.regency_code), code: d.code, name: d.name })));
    await repo.insertLocations(tx, DEFAULT_LOCATIONS);
  });
}

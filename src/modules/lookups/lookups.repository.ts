import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { cities, countries, districts, locations, provinces } from './lookups.tables.js';

export interface AreaRow {
  id: number;
  parentId: number;
  code: string;
  name: string;
}

export interface LocationRow {
  id: number;
  code: string;
  name: string;
  countryCode: string;
  isActive: boolean;
}

export class LookupsRepository {
  listCountries(ex: Executor) {
    return ex.select({ id: countries.id, code: countries.code, name: countries.name }).from(countries).orderBy(asc(countries.name));
  }

  listProvinces(ex: Executor, countryId?: number) {
    const q = ex.select({ id: provinces.id, name: provinces.name }).from(provinces);
    return (countryId === undefined ? q : q.where(eq(provinces.countryId, countryId))).orderBy(asc(provinces.name));
  }

  listCities(ex: Executor, provinceId: number) {
    return ex
      .select({ id: cities.id, province_id: cities.provinceId, name: cities.name })
      .from(cities)
      .where(eq(cities.provinceId, provinceId))
      .orderBy(asc(cities.name));
  }

  listDistricts(ex: Executor, cityId: number) {
    return ex
      .select({ id: districts.id, city_id: districts.cityId, name: districts.name })
      .from(districts)
      .where(eq(districts.cityId, cityId))
      .orderBy(asc(districts.name));
  }

  listLocations(ex: Executor): Promise<LocationRow[]> {
    return ex
      .select({ id: locations.id, code: locations.code, name: locations.name, countryCode: locations.countryCode, isActive: locations.isActive })
      .from(locations)
      .orderBy(asc(locations.id));
  }

  async findLocation(ex: Executor, id: number) {
    const [row] = await ex.select().from(locations).where(eq(locations.id, id));
    return row;
  }

  async counts(ex: Executor) {
    const [row] = await ex.select({
      countries: sql<number>`(select count(*)::int from ${countries})`,
      provinces: sql<number>`(select count(*)::int from ${provinces})`,
      cities: sql<number>`(select count(*)::int from ${cities})`,
      districts: sql<number>`(select count(*)::int from ${districts})`,
      locations: sql<number>`(select count(*)::int from ${locations})`,
    }).from(sql`(select 1) as one`);
    return row!;
  }

  /** Is this (country, province, city, district) chain consistent? Missing levels are skipped. */
  async areaChainExists(
    ex: Executor,
    ids: { countryId?: number; provinceId?: number; cityId?: number; districtId?: number },
  ): Promise<{ country: boolean; province: boolean; city: boolean; district: boolean }> {
    const [row] = await ex.select({
      country: sql<boolean>`${ids.countryId ?? null}::int is null or exists (select 1 from ${countries} where id = ${ids.countryId ?? null}::int)`,
      province: sql<boolean>`${ids.provinceId ?? null}::int is null or exists (select 1 from ${provinces} where id = ${ids.provinceId ?? null}::int and (${ids.countryId ?? null}::int is null or country_id = ${ids.countryId ?? null}::int))`,
      city: sql<boolean>`${ids.cityId ?? null}::int is null or exists (select 1 from ${cities} where id = ${ids.cityId ?? null}::int and (${ids.provinceId ?? null}::int is null or province_id = ${ids.provinceId ?? null}::int))`,
      district: sql<boolean>`${ids.districtId ?? null}::int is null or exists (select 1 from ${districts} where id = ${ids.districtId ?? null}::int and (${ids.cityId ?? null}::int is null or city_id = ${ids.cityId ?? null}::int))`,
    }).from(sql`(select 1) as one`);
    return row!;
  }

  async upsertCountries(ex: Executor, rows: { id: number; code: string; name: string }[]) {
    if (rows.length === 0) return;
    await ex.insert(countries).values(rows).onConflictDoUpdate({ target: countries.id, set: { code: sql`excluded.code`, name: sql`excluded.name` } });
  }

  async upsertAreas(ex: Executor, level: 'provinces' | 'cities' | 'districts', rows: AreaRow[]) {
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      if (level === 'provinces') {
        await ex
          .insert(provinces)
          .values(chunk.map((r) => ({ id: r.id, countryId: r.parentId, code: r.code, name: r.name })))
          .onConflictDoUpdate({ target: provinces.id, set: { name: sql`excluded.name`, code: sql`excluded.code` } });
      } else if (level === 'cities') {
        await ex
          .insert(cities)
          .values(chunk.map((r) => ({ id: r.id, provinceId: r.parentId, code: r.code, name: r.name })))
          .onConflictDoUpdate({ target: cities.id, set: { name: sql`excluded.name`, code: sql`excluded.code` } });
      } else {
        await ex
          .insert(districts)
          .values(chunk.map((r) => ({ id: r.id, cityId: r.parentId, code: r.code, name: r.name })))
          .onConflictDoUpdate({ target: districts.id, set: { name: sql`excluded.name`, code: sql`excluded.code` } });
      }
    }
  }

  async insertLocations(ex: Executor, rows: (typeof locations.$inferInsert)[]) {
    await ex.insert(locations).values(rows).onConflictDoNothing();
  }
}

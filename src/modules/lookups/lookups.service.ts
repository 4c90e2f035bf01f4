import type { Database } from '../../platform/db/database.js';
import { passwordRule } from '../../platform/password-policy.js';
import type { AppSettings, SettingsService } from '../settings/index.js';
import type { LookupsRepository } from './lookups.repository.js';
import { seedReferenceData } from './lookups.seed.js';

/** How long a process keeps a reference-data list (countries and areas change only with a release's seed). */
const REFERENCE_CACHE_MS = 10 * 60_000;

export class LookupsService {
  /** Reference lists by key ('city:32'), each read from the database at most once per REFERENCE_CACHE_MS. */
  private readonly cache = new Map<string, { until: number; rows: Promise<unknown[]> }>();

  constructor(
    private readonly db: Database,
    private readonly repo: LookupsRepository,
    private readonly settings: SettingsService,
  ) {}

  private cached<T>(key: string, load: () => Promise<T[]>): Promise<T[]> {
    // a monotonic timer: this is a cache lifetime, not business time (which comes from the clock)
    const now = performance.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.rows as Promise<T[]>;
    // ids are any integer: unknown ones (empty lists) must not grow the map without bound
    if (this.cache.size >= 2000) this.cache.clear();
    // run it once now: a drizzle query is a thenable that runs again at every await
    const rows = (async () => load())();
    this.cache.set(key, { until: now + REFERENCE_CACHE_MS, rows });
    // a failed read is not kept
    rows.catch(() => this.cache.delete(key));
    return rows;
  }

  countries() {
    return this.cached('country', () => this.repo.listCountries(this.db));
  }

  provinces(countryId?: number) {
    return this.cached(`province:${countryId ?? ''}`, () => this.repo.listProvinces(this.db, countryId));
  }

  cities(provinceId: number) {
    return this.cached(`city:${provinceId}`, () => this.repo.listCities(this.db, provinceId));
  }

  districts(cityId: number) {
    return this.cached(`district:${cityId}`, () => this.repo.listDistricts(this.db, cityId));
  }

  locations() {
    return this.repo.listLocations(this.db);
  }

  findLocation(id: number) {
    return this.repo.findLocation(this.db, id);
  }

  /** Checks geographic ids given together (e.g. a profile address) against the reference data. */
  areaChainExists(ids: { countryId?: number; provinceId?: number; cityId?: number; districtId?: number }) {
    return this.repo.areaChainExists(this.db, ids);
  }

  passwordRules() {
    return passwordRule;
  }

  /** The application settings, for the terms link and the theme colors the public routes show. */
  appSettings(): Promise<AppSettings> {
    return this.settings.get();
  }

  async seed() {
    await seedReferenceData(this.db, this.repo);
    this.cache.clear();
  }
}

import type { Database } from '../../platform/db/database.js';
import { passwordRule } from '../auth/index.js';
import type { SettingsService } from '../settings/index.js';
import type { LookupsRepository } from './lookups.repository.js';
import { seedReferenceData } from './lookups.seed.js';

export class LookupsService {
  constructor(
    private readonly db: Database,
    private readonly repo: LookupsRepository,
    private readonly settings: SettingsService,
  ) {}

  countries() {
    return this.repo.listCountries(this.db);
  }

  provinces(countryId?: number) {
    return this.repo.listProvinces(this.db, countryId);
  }

  cities(provinceId: number) {
    return this.repo.listCities(this.db, provinceId);
  }

  districts(cityId: number) {
    return this.repo.listDistricts(this.db, cityId);
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
    return { ...passwordRule };
  }

  async termsLink() {
    const s = await this.settings.get();
    return { link: s.termsAndConditionsUrl };
  }

  async appColors() {
    const s = await this.settings.get();
    return {
      app_color: { primary: s.primaryColor, secondary: s.secondaryColor, accent: s.accentColor, error: s.errorColor },
      email_color: { primary: s.primaryColor },
    };
  }

  seed() {
    return seedReferenceData(this.db, this.repo);
  }
}

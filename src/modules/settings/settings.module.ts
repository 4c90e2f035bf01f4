import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import { companyAdminRoutes } from './company.admin-routes.js';
import { CompanyRepository } from './company.repository.js';
import { CompanyService } from './company.service.js';
import { settingsAdminRoutes } from './settings.admin-routes.js';
import { SettingsRepository } from './settings.repository.js';
import { SettingsService } from './settings.service.js';
import { settingsConstraintMeanings } from './settings.tables.js';

/** Platform settings (cached per process, dropped on a change anywhere) and the company printed on documents. */
export function createSettingsModule(p: Platform, deps: { audit: AuditService }) {
  const settings = new SettingsService(p.db, new SettingsRepository(), deps.audit, p.clock, p.events, p.log);
  const company = new CompanyService(p.db, new CompanyRepository(), deps.audit, p.clock, async () => (await settings.get()).appName);
  return {
    services: { settings, company },
    seed: () => settings.seed(),
    routes: [
      mount('backoffice', settingsAdminRoutes, { prefix: '/setting', settings }),
      mount('backoffice', companyAdminRoutes, { prefix: '/setting/company', company }),
    ],
    constraints: settingsConstraintMeanings,
  } satisfies BuiltModule;
}

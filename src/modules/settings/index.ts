export { SettingsService, SETTINGS_CHANNEL } from './settings.service.js';
export type { StaffTwoFactorScope } from './settings.schemas.js';
export { SettingsRepository, type AppSettings, type FirewallRuleType } from './settings.repository.js';
export { settingsAdminRoutes } from './settings.admin-routes.js';
export { settingsConstraintMeanings } from './settings.tables.js';
export { CompanyService } from './company.service.js';
export { CompanyRepository } from './company.repository.js';
export { companyAdminRoutes } from './company.admin-routes.js';
export { createSettingsModule } from './settings.module.js';

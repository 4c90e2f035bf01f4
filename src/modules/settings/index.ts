export { SettingsService, SETTINGS_CHANNEL } from './settings.service.js';
export { SettingsRepository, type AppSettings, type FirewallRuleType } from './settings.repository.js';
export { settingsAdminRoutes } from './settings.admin-routes.js';
export { settingsConstraintMeanings } from './settings.tables.js';

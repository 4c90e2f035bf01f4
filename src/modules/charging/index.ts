export { MeteringService, type OpenMeter, type ResourceType } from './metering.service.js';
export { ChargingService, hourStart, type RunResult, type HourResult } from './charging.service.js';
export { ChargingRepository } from './charging.repository.js';
export { SuspensionService, noopSuspender, type ResourceSuspender } from './suspension.service.js';
export { SuspensionRepository, SUSPEND_BALANCE, SUSPEND_OVERDUE, DEFAULT_CHARGING_SETTINGS, type ChargingSettings } from './suspension.repository.js';
export { BillingUsageService } from './billing-usage.service.js';
export { UsageViewRepository } from './suspension.repository.js';
export { chargingRoutes, chargingAdminRoutes } from './charging.routes.js';

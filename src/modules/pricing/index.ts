export { PricingService, type ScheduleInput } from './pricing.service.js';
export { scheduleView, priceRowView, componentView } from './pricing.present.js';
export { PricingRepository, type Component, type PriceSchedule, type PriceVersion } from './pricing.repository.js';
export { pricingAdminRoutes } from './pricing.admin-routes.js';
export { pricingConstraintMeanings } from './pricing.tables.js';
export { tierKey, storageTierKey, componentKey, tierComponentKey, parseKey } from './pricing.keys.js';
export { type PricedResource, type PricedResourcesReader } from './pricing.ports.js';
export { createPricingModule } from './pricing.module.js';

export { ObjectStorageService, keyUserId, type BucketView, OBJECT_STORAGE_COMPONENT } from './object-storage.service.js';
export { ObjectStorageRepository, type BucketRow } from './object-storage.repository.js';
export { objectStorageRoutes } from './object-storage.routes.js';
export { objectStorageConstraintMeanings, BUCKET_KIND, ACCESS_KEY_KIND } from './object-storage.tables.js';
export { hourlyCost, priceTiers, STORAGE_PRICE_TIERS, type PriceTier } from './object-storage.pricing.js';
export { createObjectStorageModule } from './object-storage.module.js';

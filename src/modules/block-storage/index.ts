export { BlockStorageService } from './block-storage.service.js';
export { machineView, storageTierView } from './block-storage.present.js';
export { BlockStorageRepository, type BlockStorageMachine, type StorageTier } from './block-storage.repository.js';
export { blockStorageAdminRoutes } from './block-storage.admin-routes.js';
export { blockStorageConstraintMeanings } from './block-storage.tables.js';
export { createBlockStorageModule } from './block-storage.module.js';

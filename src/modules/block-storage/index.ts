export { BlockStorageService, machineView, storageTierView } from './block-storage.service.js';
export { BlockStorageRepository, type BlockStorageMachine, type StorageTier } from './block-storage.repository.js';
export { blockStorageAdminRoutes } from './block-storage.admin-routes.js';
export { blockStorageConstraintMeanings } from './block-storage.tables.js';

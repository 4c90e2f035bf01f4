export { RetentionService, monthStart, PARTITION_MONTHS_AHEAD } from './retention.service.js';
export { RetentionRepository, PARTITIONED_TABLES, RETENTION_DEFAULTS } from './retention.repository.js';
export { retentionAdminRoutes } from './retention.admin-routes.js';
export { createRetentionModule } from './retention.module.js';

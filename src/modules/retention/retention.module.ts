import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { retentionAdminRoutes } from './retention.admin-routes.js';
import { RetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';

/** History: monthly partitions made ahead, usage roll-up and retention, monthly exports. */
export function createRetentionModule(p: Platform) {
  const retention = new RetentionService(p.db, new RetentionRepository(), p.clock, p.log);
  return {
    services: { retention },
    jobs: [retention.ensurePartitionsJob, retention.retentionJob],
    routes: [mount('backoffice', retentionAdminRoutes, { retention })],
  } satisfies BuiltModule;
}

export { JobsAdminService } from './jobs.service.js';
export { jobsAdminRoutes } from './jobs.admin-routes.js';
export { createJobsModule } from './jobs.module.js';

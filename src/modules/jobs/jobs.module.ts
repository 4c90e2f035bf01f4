import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AdminsService } from '../admins/index.js';
import type { AuditService } from '../audit/index.js';
import { jobsAdminRoutes } from './jobs.admin-routes.js';
import { JobsAdminService } from './jobs.service.js';

/** The backoffice's view of the job queue: schedules, last runs, manual runs. */
export function createJobsModule(p: Platform, deps: { admins: AdminsService; audit: AuditService }) {
  const jobsAdmin = new JobsAdminService(p.db, p.queue, deps.admins, deps.audit, p.clock);
  return {
    services: { jobsAdmin },
    routes: [mount('backoffice', jobsAdminRoutes, { prefix: '/jobs', jobs: jobsAdmin })],
    gauges: [
      {
        name: 'job_schedules_not_registered',
        help: 'Declared job schedules the job queue does not hold as declared: those jobs do not run by themselves (GET /api/backoffice/jobs)',
        read: async () => (await p.queue.schedules()).filter((s) => !s.ok).length,
      },
    ],
  } satisfies BuiltModule;
}

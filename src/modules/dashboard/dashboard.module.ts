import type { VmHosts } from '../../integrations/datacenter/index.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { dashboardAdminRoutes } from './dashboard.admin-routes.js';
import { DashboardRepository } from './dashboard.repository.js';
import { DashboardService } from './dashboard.service.js';

/** The backoffice dashboard: money, VMs and addresses over time. */
export function createDashboardModule(p: Platform, deps: { vmHosts: VmHosts }) {
  const dashboard = new DashboardService(p.db, new DashboardRepository(), (loc) => deps.vmHosts.publicIpPool(loc).addresses.length, p.clock, {
    timeZone: p.config.platformTimeZone,
    currency: p.config.currency,
  });
  return {
    services: { dashboard },
    jobs: [dashboard.compactJob],
    routes: [mount('backoffice', dashboardAdminRoutes, { prefix: '/dashboard', dashboard })],
  } satisfies BuiltModule;
}

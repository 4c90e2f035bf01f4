export { DashboardService, monthOf, type DashboardOptions, type PublicIpPoolSize } from './dashboard.service.js';
export { DashboardRepository, type MoneyMetric, type VmGroupBy } from './dashboard.repository.js';
export { dashboardAdminRoutes } from './dashboard.admin-routes.js';
export { createDashboardModule } from './dashboard.module.js';

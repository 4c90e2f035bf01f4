export { CustomerAdminService } from './customer-admin.service.js';
export { customerAdminRoutes } from './customer-admin.admin-routes.js';

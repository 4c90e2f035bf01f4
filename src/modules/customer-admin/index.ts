export { CustomerAdminService } from './customer-admin.service.js';
export { customerAdminRoutes } from './customer-admin.admin-routes.js';
export { CustomerResourcesRepository } from './customer-resources.repository.js';
export { createCustomerAdminModule } from './customer-admin.module.js';

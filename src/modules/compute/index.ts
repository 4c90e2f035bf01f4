export { ComputeService, type CreateVmInput, type VmWithSync } from './compute.service.js';
export { vmPriceItems } from './compute.pricing.js';
export { VmTasksService, type VmDeletedListener } from './vm-tasks.service.js';
export { ComputeRepository, type Vm } from './compute.repository.js';
export { computeRoutes } from './compute.routes.js';
export { computeAdminRoutes } from './compute.admin-routes.js';
export { computeConstraintMeanings, VM_KIND, VM_STATUSES, type VmStatus, type VmTask } from './compute.tables.js';
export { vmView, adminVmView } from './compute.present.js';

export { ComputeService, vmPriceItems, type CreateVmInput } from './compute.service.js';
export { VmTasksService, STUCK_AFTER_MINUTES, type VmDeletedListener, type VmCreatedListener } from './vm-tasks.service.js';
export { ComputeRepository, type Vm } from './compute.repository.js';
export { vmTaskJob, requeueStuckJob, type VmTaskJob } from './compute.jobs.js';
export { computeRoutes } from './compute.routes.js';
export { computeAdminRoutes } from './compute.admin-routes.js';
export { computeConstraintMeanings, VM_STATUSES, type VmStatus, type VmTask } from './compute.tables.js';
export { vmView, adminVmView } from './compute.present.js';

export { NetworksService, networkPriceItems, MAX_NETWORKS_PER_CUSTOMER, type CreateNetworkInput, type AssignInput, type NetworkLifecycleListener } from './networks.service.js';
export { NetworkTasksService, NETWORK_SYNC_AFTER_MINUTES } from './network-tasks.service.js';
export { NetworksRepository, type PrivateNetwork, type PrivateIp } from './networks.repository.js';
export { networkJobs, type NetworkTaskJob, type IpTaskJob } from './networks.jobs.js';
export { networksRoutes } from './networks.routes.js';
export { networksConstraintMeanings } from './networks.tables.js';
export { networksAdminRoutes } from './networks.admin-routes.js';

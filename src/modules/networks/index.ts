export { NetworksService, MAX_NETWORKS_PER_CUSTOMER, type CreateNetworkInput, type AssignInput, type NetworkWithSync, type IpWithSync } from './networks.service.js';
export { networkPriceItems } from './networks.pricing.js';
export { NetworkTasksService } from './network-tasks.service.js';
export { NetworksRepository, type PrivateNetwork, type PrivateIp } from './networks.repository.js';
export { networksRoutes } from './networks.routes.js';
export { networksConstraintMeanings, NETWORK_KIND, IP_KIND } from './networks.tables.js';
export { networksAdminRoutes } from './networks.admin-routes.js';
export { createNetworksModule } from './networks.module.js';

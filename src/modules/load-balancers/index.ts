export { LoadBalancersService, LOAD_BALANCER_COMPONENT } from './load-balancers.service.js';
export { LOAD_BALANCER_KIND } from './load-balancers.tables.js';
export { LoadBalancersRepository, type LoadBalancerRow } from './load-balancers.repository.js';
export { loadBalancersRoutes } from './load-balancers.routes.js';
export { loadBalancersAdminRoutes } from './load-balancers.admin-routes.js';
export { createLoadBalancersModule } from './load-balancers.module.js';

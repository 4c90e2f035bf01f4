import type { Balancers } from '../../integrations/datacenter/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { BillableStartRule } from '../charging/index.js';
import type { PricingService } from '../pricing/index.js';
import { loadBalancersAdminRoutes } from './load-balancers.admin-routes.js';
import { LoadBalancersRepository } from './load-balancers.repository.js';
import { loadBalancersRoutes } from './load-balancers.routes.js';
import { LoadBalancersService } from './load-balancers.service.js';

/** Load balancers in front of a customer's VMs. */
export function createLoadBalancersModule(p: Platform, deps: { balancers: Balancers; pricing: PricingService; metering: Metering; billableStart: BillableStartRule }) {
  const loadBalancers = new LoadBalancersService(p.db, new LoadBalancersRepository(), deps.pricing, deps.balancers, deps.metering, p.lifecycle, p.clock, deps.billableStart);
  return {
    services: { loadBalancers },
    resources: [loadBalancers],
    routes: [
      mount('backoffice', loadBalancersAdminRoutes, { balancers: loadBalancers }),
      mount('customer', loadBalancersRoutes, { prefix: '/api/network/load-balancer', balancers: loadBalancers }),
    ],
  } satisfies BuiltModule;
}

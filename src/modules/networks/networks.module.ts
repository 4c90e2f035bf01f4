import type { NetworkFabric } from '../../integrations/datacenter/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { BillableStartRule } from '../charging/index.js';
import type { ComputeService } from '../compute/index.js';
import type { PricingService } from '../pricing/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { NetworkTasksService } from './network-tasks.service.js';
import { networksAdminRoutes } from './networks.admin-routes.js';
import { NetworksRepository } from './networks.repository.js';
import { networksRoutes } from './networks.routes.js';
import { NetworksService } from './networks.service.js';
import { networksConstraintMeanings } from './networks.tables.js';

export interface NetworksDeps {
  networkFabric: NetworkFabric;
  compute: ComputeService;
  pricing: PricingService;
  metering: Metering;
  billableStart: BillableStartRule;
  webhookEvents: WebhookEmitter;
}

/** Private networks and their addresses, on the datacenter. */
export function createNetworksModule(p: Platform, deps: NetworksDeps) {
  const { db, clock } = p;
  const networksRepo = new NetworksRepository();
  const networks = new NetworksService(db, networksRepo, deps.compute, deps.billableStart, deps.pricing, deps.metering, p.lifecycle, clock, deps.webhookEvents);
  const networkTasks = new NetworkTasksService(db, networksRepo, deps.compute, deps.pricing, deps.networkFabric, deps.metering, clock, deps.webhookEvents);
  return {
    services: { networks, networkTasks },
    resources: [networkTasks.networks, networkTasks.ips],
    routes: [
      mount('backoffice', networksAdminRoutes, { prefix: '/network/private', networks }),
      mount('customer', networksRoutes, { prefix: '/api/network/private', networks }),
    ],
    constraints: networksConstraintMeanings,
  } satisfies BuiltModule;
}

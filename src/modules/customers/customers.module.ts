import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { LookupsService } from '../lookups/index.js';
import { CustomersRepository } from './customers.repository.js';
import { customersRoutes } from './customers.routes.js';
import { CustomersService, type CustomersPorts } from './customers.service.js';
import { customersConstraintMeanings } from './customers.tables.js';

/** Customer accounts and profiles; balances, usage, unread notices and session limits come through ports. */
export function createCustomersModule(p: Platform, deps: { lookups: LookupsService; ports: CustomersPorts }) {
  const customers = new CustomersService(p.db, new CustomersRepository(), deps.lookups, deps.ports, p.clock);
  return {
    services: { customers },
    routes: [mount('customer', customersRoutes, { prefix: '/api', customers })],
    constraints: customersConstraintMeanings,
  } satisfies BuiltModule;
}

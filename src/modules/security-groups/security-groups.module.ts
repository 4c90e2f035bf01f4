import type { Firewalls } from '../../integrations/datacenter/index.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { SecurityGroupsRepository } from './security-groups.repository.js';
import { securityGroupsRoutes, vmSecurityGroupsRoutes } from './security-groups.routes.js';
import { SecurityGroupsService } from './security-groups.service.js';
import { securityGroupsConstraintMeanings } from './security-groups.tables.js';

/** Security groups (firewall rules) and the VMs they apply to. */
export function createSecurityGroupsModule(p: Platform, deps: { firewalls: Firewalls }) {
  const securityGroups = new SecurityGroupsService(p.db, new SecurityGroupsRepository(), deps.firewalls, p.lifecycle, p.clock);
  return {
    services: { securityGroups },
    resources: [securityGroups],
    routes: [
      mount('customer', securityGroupsRoutes, { prefix: '/api/network/security-group', groups: securityGroups }),
      mount('customer', vmSecurityGroupsRoutes, { prefix: '/api/compute', groups: securityGroups }),
    ],
    constraints: securityGroupsConstraintMeanings,
  } satisfies BuiltModule;
}

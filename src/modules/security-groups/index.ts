export { SecurityGroupsService, normalizeCidr } from './security-groups.service.js';
export { SecurityGroupsRepository } from './security-groups.repository.js';
export { securityGroupsRoutes, vmSecurityGroupsRoutes } from './security-groups.routes.js';
export { securityGroupsConstraintMeanings, SECURITY_GROUP_KIND } from './security-groups.tables.js';
export { createSecurityGroupsModule } from './security-groups.module.js';

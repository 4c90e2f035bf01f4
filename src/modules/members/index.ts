export { MembersService, INVITATION_DAYS, type MemberActor, type AccountHoldings, type ClosureBlocker } from './members.service.js';
export { MembersRepository, type MemberRow } from './members.repository.js';
export {
  CUSTOMER_PERMISSIONS,
  CUSTOMER_PERMISSION_SET,
  MEMBER_ROLES,
  ROLE_PERMISSIONS,
  customerPermissionOf,
  roleAllows,
  isMemberRole,
  type CustomerPermission,
  type MemberRole,
} from './member-permissions.js';
export { requireMemberPermissions, roleTable } from './members.surface.js';
export { createMembersModule } from './members.module.js';

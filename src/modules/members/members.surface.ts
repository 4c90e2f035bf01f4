import type { FastifyInstance } from 'fastify';
import { AppError, ForbiddenError } from '../../platform/errors.js';
import type { Executor } from '../../platform/db/database.js';
import { scopesCover, type RequiredScope } from '../api-tokens/index.js';
import { CUSTOMER_PERMISSIONS, customerPermissionOf, roleAllows, ROLE_PERMISSIONS, MEMBER_ROLES } from './member-permissions.js';
import type { MembersService } from './members.service.js';

const BLOCKS = {
  ACCOUNT_DISABLED: 'This account is disabled: switch to another account (POST /api/accounts/switch)',
  TWO_FACTOR_REQUIRED: 'This account requires two-factor authentication of its members: turn it on for your login, or switch to another account',
  ACCOUNT_CLOSED: 'This account is closed: switch to another account you belong to (GET /api/accounts, POST /api/accounts/switch)',
  NOT_A_MEMBER: 'You no longer belong to this account: switch to another account you belong to (GET /api/accounts, POST /api/accounts/switch)',
} as const;

/**
 * On the customer surface, after authentication: every signed-in route needs a permission
 * (member-permissions.ts; start-up fails without one, and the OpenAPI operation names it as
 * `x-member-permission`), and a request whose caller's role in the account acted on lacks it is a
 * 403, whether it comes with a session or an API token. A member's write checks its membership
 * again in the transaction of its change, locked for share, so a removal or demotion that
 * commits first fails it and rolls it back.
 */
export function requireMemberPermissions(scope: FastifyInstance, members: MembersService): void {
  const permissionOf = new Map<string, string>();
  scope.addHook('onRoute', (route) => {
    // a public route with an optional session (logout) is the person's own, and says so
    if (route.config?.public && !route.config.optionalSession) return;
    for (const method of [route.method].flat().map(String)) {
      if (method === 'HEAD') continue;
      // a public route that reads an optional session (logout, the e-mail change page) is the person's own
      const permission = customerPermissionOf(method, route.url) ?? (route.config?.public ? 'self' : undefined);
      if (!permission) throw new Error(`customer route ${method} ${route.url} has no permission in src/modules/members/member-permissions.ts`);
      permissionOf.set(`${method} ${route.url}`, permission);
      const schema = (route.schema ??= {}) as Record<string, any>;
      schema['x-member-permission'] = permission;
      const roles = MEMBER_ROLES.filter((r) => roleAllows(r, permission));
      schema.description = [schema.description, `Members: needs \`${permission}\` (${roles.join(', ')}).`].filter(Boolean).join('\n\n');
    }
  });
  scope.addHook('onRequest', async (request) => {
    const c = request.customer;
    if (!c) return;
    // what the caller may see: the role's permissions, capped by a token's scopes (a scope family it covers)
    const held = c.accountBlock === 'ACCOUNT_CLOSED' || c.accountBlock === 'NOT_A_MEMBER' ? 'none' : (c.role ?? 'owner');
    const scopes = c.scopes;
    c.may = (p) => roleAllows(held, p) && (scopes === undefined || !p.includes(':') || scopesCover(scopes, p as RequiredScope));
    if (request.routeOptions.config.public) return;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const permission = permissionOf.get(`${method} ${request.routeOptions.url}`);
    if (!permission) throw new ForbiddenError();
    if (c.accountBlock) {
      if (permission !== 'self') throw new AppError(403, c.accountBlock, BLOCKS[c.accountBlock]);
      return; // the person's own routes: every role holds self, and a person without a role here keeps them
    }
    const role = c.role ?? 'owner';
    if (!roleAllows(role, permission)) {
      throw new AppError(403, 'ROLE_FORBIDDEN', `Your role in this account (${role.replace('_', '-')}) does not allow this`, [{ field: 'permission', message: permission }]);
    }
  });
  // after the activity hook's preHandler: the pending entry of a member's write first re-checks the
  // membership; the owner's too, so a write in flight and the account's closure (which locks the
  // member rows) run one after the other: the closure sees what the write made, or the write fails
  scope.addHook('preHandler', async (request) => {
    const c = request.customer;
    const activity = request.auditScope?.activity;
    if (!c || !activity || c.personId === undefined) return;
    const permission = permissionOf.get(`${request.method} ${request.routeOptions.url}`)!;
    const write = activity.write;
    activity.write = async (tx) => {
      await members.confirmStillAllowed(tx as Executor, c.customerId, c.personId!, permission);
      await write(tx);
    };
  });
}

/** The catalog and the role table, as docs/api.md shows them. */
export function roleTable() {
  return {
    permissions: Object.entries(CUSTOMER_PERMISSIONS).map(([name, description]) => ({ name, description })),
    roles: MEMBER_ROLES.map((role) => ({ role, permissions: [...ROLE_PERMISSIONS[role]] })),
  };
}

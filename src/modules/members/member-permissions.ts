import { TOKEN_ROUTE_SCOPES, type RequiredScope } from '../api-tokens/index.js';

/**
 * What a member of a customer account may do: ONE map from every signed-in customer route to the
 * permission it needs, and one table from each role to the permissions it holds (docs/api.md,
 * "Teams"). The customer surface refuses to start with a signed-in route that has no permission,
 * and refuses a request whose caller's role in the account acted on lacks it (403), whether the
 * caller uses a session or an API token: a token is capped by its holder's role at every request.
 *
 * The permission of a resource route is the API token scope it already needs (token-scopes.ts:
 * `compute:write`, `billing:read`, …), so one table says both what a token and what a role must
 * hold; the routes below name theirs here, and the person's own routes (their sign-in, 2FA,
 * sessions, tokens, memberships) need `self`, which every role holds.
 */

export const MEMBER_ROLES = ['owner', 'admin', 'billing', 'technical', 'read_only'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const CUSTOMER_PERMISSIONS = {
  self: "The person's own sign-in: password, 2FA, e-mail, device sessions, their API tokens, their memberships and invitations",
  'account:read': 'The account profile, resource counts, notifications, announcements and referral',
  'account:write': 'Changes the account profile and notification settings, claims referral rewards, marks notifications read',
  'billing:read': 'Wallet, top-up invoices, usage, postpaid invoices, payment methods',
  'billing:write': 'Top-ups, postpaid payments, redeem codes',
  'compute:read': 'VMs, the tier catalog, SSH keys',
  'compute:write': 'Creates, changes and deletes VMs and SSH keys',
  'network:read': 'Private networks, security groups, load balancers',
  'network:write': 'Creates, changes and deletes networks, security groups and load balancers',
  'storage:read': 'Object storage buckets and access keys',
  'storage:write': 'Creates, changes and deletes buckets and access keys',
  'tickets:read': 'Support tickets',
  'tickets:write': 'Opens, answers and closes support tickets',
  'webhooks:read': 'Webhook endpoints, events and deliveries',
  'webhooks:write': 'Creates, changes and replays webhook endpoints and events',
  'activity:read': "The account's activity log: who did what",
  'members:read': 'The members of the account, their roles and open invitations',
  'members:write': 'Invites members, changes their roles (never to or from owner), removes them',
  'account:owner': 'Transfers ownership, requires 2FA of every member, closes the account',
} as const;

export type CustomerPermission = keyof typeof CUSTOMER_PERMISSIONS;
export const CUSTOMER_PERMISSION_SET: ReadonlySet<string> = new Set(Object.keys(CUSTOMER_PERMISSIONS));

const ALL = Object.keys(CUSTOMER_PERMISSIONS) as CustomerPermission[];
const reads = (...families: string[]) => families.map((f) => `${f}:read` as CustomerPermission);
const writes = (...families: string[]) => families.map((f) => `${f}:write` as CustomerPermission);

/** The permissions of each role. */
export const ROLE_PERMISSIONS: Readonly<Record<MemberRole, readonly CustomerPermission[]>> = {
  owner: ALL,
  admin: ALL.filter((p) => p !== 'account:owner'),
  billing: ['self', ...reads('account', 'billing', 'tickets'), ...writes('billing', 'tickets')],
  technical: ['self', ...reads('account', 'compute', 'network', 'storage', 'tickets', 'webhooks'), ...writes('compute', 'network', 'storage', 'tickets', 'webhooks')],
  read_only: ['self', ...reads('account', 'billing', 'compute', 'network', 'storage', 'tickets', 'webhooks')],
};

const ROLE_SETS = Object.fromEntries(MEMBER_ROLES.map((r) => [r, new Set<string>(ROLE_PERMISSIONS[r])])) as unknown as Record<MemberRole, ReadonlySet<string>>;

export function isMemberRole(s: unknown): s is MemberRole {
  return typeof s === 'string' && (MEMBER_ROLES as readonly string[]).includes(s);
}

export function roleAllows(role: string, permission: string): boolean {
  return isMemberRole(role) && ROLE_SETS[role].has(permission);
}

/** How much a role may do, for "lowering": a role is lower when it loses any permission. */
export function rolePermissionsLost(from: MemberRole, to: MemberRole): CustomerPermission[] {
  return ROLE_PERMISSIONS[from].filter((p) => !ROLE_SETS[to].has(p));
}

/** The person's own routes: every role holds `self`. */
const SELF_PREFIXES = ['/api/auth/', '/api/tokens', '/api/accounts', '/api/invitations'] as const;

/** Routes whose permission is not their token scope (or that tokens never reach). */
export const MEMBER_ROUTE_PERMISSIONS: Readonly<Record<string, CustomerPermission>> = {
  'GET /api/activity': 'activity:read',
  'GET /api/members': 'members:read',
  'POST /api/members/invitations': 'members:write',
  'DELETE /api/members/invitations/:id': 'members:write',
  'PATCH /api/members/:customer_id': 'members:write',
  'DELETE /api/members/:customer_id': 'members:write',
  'GET /api/members/settings': 'members:read',
  'PATCH /api/members/settings': 'account:owner',
  'POST /api/members/ownership-transfer': 'account:owner',
  'GET /api/members/account-closure': 'account:owner',
  'POST /api/members/account-closure': 'account:owner',
};

function underPrefix(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));
}

/** The permission a signed-in customer route needs; undefined when none is known (start-up fails then). */
export function customerPermissionOf(method: string, url: string): CustomerPermission | undefined {
  const key = `${method} ${url}`;
  const named = MEMBER_ROUTE_PERMISSIONS[key];
  if (named) return named;
  if (underPrefix(url, SELF_PREFIXES)) return 'self';
  const scope: RequiredScope | null | undefined = TOKEN_ROUTE_SCOPES[key];
  return scope ?? undefined;
}

/**
 * What a personal access token may reach: ONE table, keyed by method and route URL (as Fastify
 * writes it, `:param`), for every signed-in route of the customer API. A route is either mapped
 * to the scope it needs or listed as unreachable with a token (`null`); the customer surface
 * refuses to start with a signed-in route that is neither, so a new route is never reachable by
 * accident. Account security (password, 2FA, e-mail, sessions, the tokens themselves) is never
 * reachable with a token: every route under the prefixes of {@link TOKEN_UNREACHABLE_PREFIXES}.
 */

/** The resource families a token's scopes name, with what each covers (docs/api.md lists them too). */
export const SCOPE_FAMILIES = {
  account: 'The profile, resource counts, activity log, notifications, announcements and referral (never password, 2FA, e-mail, sessions or tokens)',
  billing: 'Wallet, top-up invoices, usage, postpaid invoices and payments, redeem codes',
  compute: 'VMs and their snapshots, the tier catalog, security groups on VMs, SSH keys',
  network: 'Private networks, security groups, load balancers',
  storage: 'Object storage buckets and access keys',
  tickets: 'Support tickets and replies',
  webhooks: 'Webhook endpoints, their events and deliveries',
} as const;

export type ScopeFamily = keyof typeof SCOPE_FAMILIES;
export type ScopeAccess = 'read' | 'write';
/** What a route needs. */
export type RequiredScope = `${ScopeFamily}:${ScopeAccess}`;
/** What a token may hold: read (GET routes), write (the changing routes), or * (both). */
export type TokenScope = `${ScopeFamily}:${ScopeAccess | '*'}`;

export const FAMILIES = Object.keys(SCOPE_FAMILIES) as ScopeFamily[];
export const ALL_SCOPES: readonly TokenScope[] = FAMILIES.flatMap((f) => [`${f}:read`, `${f}:write`, `${f}:*`] as TokenScope[]);
const SCOPE_SET: ReadonlySet<string> = new Set(ALL_SCOPES);

export function isTokenScope(s: string): s is TokenScope {
  return SCOPE_SET.has(s);
}

/** True when a token holding `granted` may use a route that needs `required`. */
export function scopesCover(granted: readonly string[], required: RequiredScope): boolean {
  const family = required.slice(0, required.indexOf(':'));
  return granted.includes(required) || granted.includes(`${family}:*`);
}

/** Every route under these is unreachable with a token (account security, token management, team membership). */
export const TOKEN_UNREACHABLE_PREFIXES = ['/api/auth/', '/api/tokens', '/api/members', '/api/accounts', '/api/invitations'] as const;

const r = (family: ScopeFamily): RequiredScope => `${family}:read`;
const w = (family: ScopeFamily): RequiredScope => `${family}:write`;

/** `METHOD url` → the scope it needs, or null: never reachable with a token. */
export const TOKEN_ROUTE_SCOPES: Readonly<Record<string, RequiredScope | null>> = {
  // account
  'GET /api/inf': r('account'),
  'GET /api/customer/profile': r('account'),
  'PATCH /api/customer/profile': w('account'),
  'GET /api/customer/resource': r('account'),
  'PATCH /api/customer/profile/notification-setting': w('account'),
  'GET /api/customer/referral': r('account'),
  'POST /api/customer/referral/claim': w('account'),
  'GET /api/notifications': r('account'),
  'PATCH /api/notifications/read-all': w('account'),
  'PATCH /api/notifications/:id/read': w('account'),
  'GET /api/announcements/highlight': r('account'),
  'GET /api/announcements': r('account'),
  'GET /api/release-notes': r('account'),
  'GET /api/activity': r('account'),
  // billing
  'GET /api/billing/payment-methods': r('billing'),
  'GET /api/billing/topup/minimum': r('billing'),
  'POST /api/billing/deposit': w('billing'),
  'GET /api/billing/deposit': r('billing'),
  'GET /api/billing/deposit/export/pdf': r('billing'),
  'GET /api/billing/deposit/:invoice_id': r('billing'),
  'POST /api/billing/redeem': w('billing'),
  'GET /api/billing/usage': r('billing'),
  'GET /api/billing/usage/hours': r('billing'),
  'GET /api/billing/budget': r('billing'),
  'PUT /api/billing/budget': w('billing'),
  'DELETE /api/billing/budget': w('billing'),
  'GET /api/billing/postpaid/summary': r('billing'),
  'GET /api/billing/postpaid/invoices': r('billing'),
  'GET /api/billing/postpaid/invoices/unpaid': r('billing'),
  'GET /api/billing/postpaid/invoices/:invoice_id': r('billing'),
  'POST /api/billing/postpaid/invoices/:invoice_id/pay': w('billing'),
  'POST /api/billing/postpaid/payment': w('billing'),
  'GET /api/billing/invoice/:invoice_id/download': r('billing'),
  // compute
  'GET /api/compute/tiers': r('compute'),
  'GET /api/compute/block-storage-tiers': r('compute'),
  'GET /api/compute/os': r('compute'),
  'POST /api/compute/vm': w('compute'),
  'GET /api/compute/vm': r('compute'),
  'GET /api/compute/vm/:id': r('compute'),
  'DELETE /api/compute/vm/:id': w('compute'),
  'POST /api/compute/vm/:id/start': w('compute'),
  'POST /api/compute/vm/:id/stop': w('compute'),
  // a console is root on the VM: write, also to watch it
  'POST /api/compute/vm/:id/console': w('compute'),
  'GET /api/compute/vm/:id/console/ws': w('compute'),
  'POST /api/compute/vm/:id/retry': w('compute'),
  'GET /api/compute/vm/:id/resize-preview': r('compute'),
  'POST /api/compute/vm/:id/resize': w('compute'),
  'POST /api/compute/vm/:id/reboot': w('compute'),
  'POST /api/compute/vm/:id/reset': w('compute'),
  'PATCH /api/compute/vm/:id': w('compute'),
  'POST /api/compute/vm/:id/rebuild': w('compute'),
  'POST /api/compute/vm/:id/rescue': w('compute'),
  'GET /api/compute/alerts/policies': r('compute'),
  'POST /api/compute/alerts/policies': w('compute'),
  'GET /api/compute/alerts/policies/:id': r('compute'),
  'PATCH /api/compute/alerts/policies/:id': w('compute'),
  'DELETE /api/compute/alerts/policies/:id': w('compute'),
  'GET /api/compute/alerts': r('compute'),
  'POST /api/compute/vm/:id/snapshots': w('compute'),
  'GET /api/compute/vm/:id/snapshots': r('compute'),
  'GET /api/compute/vm/:id/metrics': r('compute'),
  'GET /api/compute/vm/:id/traffic': r('compute'),
  'GET /api/compute/snapshots': r('compute'),
  'GET /api/compute/snapshots/:id': r('compute'),
  'PATCH /api/compute/snapshots/:id': w('compute'),
  'DELETE /api/compute/snapshots/:id': w('compute'),
  'POST /api/compute/snapshots/:id/restore': w('compute'),
  'POST /api/compute/snapshots/:id/create-vm': w('compute'),
  'POST /api/compute/vm/:id/unrescue': w('compute'),
  'GET /api/compute/vm/:id/backups': r('compute'),
  'PUT /api/compute/vm/:id/backups/plan': w('compute'),
  'POST /api/compute/vm/:id/backups': w('compute'),
  'POST /api/compute/vm/:id/backups/:backup_id/restore': w('compute'),
  'GET /api/compute/backups': r('compute'),
  'POST /api/compute/backups/:backup_id/vm': w('compute'),
  'DELETE /api/compute/backups/:backup_id': w('compute'),
  'GET /api/compute/backups/restores/:restore_id': r('compute'),
  'POST /api/compute/vm/:id/security-groups': w('compute'),
  'DELETE /api/compute/vm/:id/security-groups/:uuid': w('compute'),
  'POST /api/ssh-keys': w('compute'),
  'GET /api/ssh-keys': r('compute'),
  'GET /api/ssh-keys/:id': r('compute'),
  'PATCH /api/ssh-keys/:id': w('compute'),
  'DELETE /api/ssh-keys/:id': w('compute'),
  // network
  'POST /api/network/private': w('network'),
  'GET /api/network/private': r('network'),
  'GET /api/network/private/:uuid': r('network'),
  'DELETE /api/network/private/:uuid': w('network'),
  'GET /api/network/private/:uuid/ips': r('network'),
  'POST /api/network/private/:uuid/assign': w('network'),
  'DELETE /api/network/private/:uuid/assign/:instance_id': w('network'),
  'GET /api/network/private/:uuid/graph': r('network'),
  'GET /api/network/security-group/rule-types': r('network'),
  'POST /api/network/security-group': w('network'),
  'GET /api/network/security-group': r('network'),
  'GET /api/network/security-group/:uuid': r('network'),
  'DELETE /api/network/security-group/:uuid': w('network'),
  'POST /api/network/security-group/:uuid/rules': w('network'),
  'DELETE /api/network/security-group/:uuid/rules/:rule_id': w('network'),
  'POST /api/network/load-balancer': w('network'),
  'GET /api/network/load-balancer': r('network'),
  'GET /api/network/load-balancer/:uuid': r('network'),
  'PATCH /api/network/load-balancer/:uuid': w('network'),
  'DELETE /api/network/load-balancer/:uuid': w('network'),
  'POST /api/network/load-balancer/:uuid/targets': w('network'),
  'DELETE /api/network/load-balancer/:uuid/targets/:vm_id': w('network'),
  // storage
  'GET /api/storage/object': r('storage'),
  'POST /api/storage/object': w('storage'),
  'GET /api/storage/object/price': r('storage'),
  'GET /api/storage/object/:uuid': r('storage'),
  'DELETE /api/storage/object/:uuid': w('storage'),
  'PATCH /api/storage/object/:uuid/acl': w('storage'),
  'PATCH /api/storage/object/:uuid/resize': w('storage'),
  'GET /api/storage/object/keys': r('storage'),
  'POST /api/storage/object/keys': w('storage'),
  'PATCH /api/storage/object/keys/:accessKey': w('storage'),
  'DELETE /api/storage/object/keys/:accessKey': w('storage'),
  'POST /api/storage/object/keys/:accessKey/buckets': w('storage'),
  'DELETE /api/storage/object/keys/:accessKey/buckets/:bucketUuid': w('storage'),
  // tickets
  'POST /api/ticket': w('tickets'),
  'GET /api/ticket': r('tickets'),
  'GET /api/ticket/:id': r('tickets'),
  'POST /api/ticket/:id/reply': w('tickets'),
  'PATCH /api/ticket/:id/close': w('tickets'),
  'GET /api/ticket/:id/attachments/:attachment_id': r('tickets'),
  // webhooks
  'GET /api/webhooks/event-types': r('webhooks'),
  'POST /api/webhooks/endpoints': w('webhooks'),
  'GET /api/webhooks/endpoints': r('webhooks'),
  'GET /api/webhooks/endpoints/:id': r('webhooks'),
  'PATCH /api/webhooks/endpoints/:id': w('webhooks'),
  'DELETE /api/webhooks/endpoints/:id': w('webhooks'),
  'POST /api/webhooks/endpoints/:id/rotate-secret': w('webhooks'),
  'POST /api/webhooks/endpoints/:id/test': w('webhooks'),
  'POST /api/webhooks/endpoints/:id/replay-failed': w('webhooks'),
  'GET /api/webhooks/events': r('webhooks'),
  'GET /api/webhooks/events/:event_id': r('webhooks'),
  'POST /api/webhooks/events/:event_id/replay': w('webhooks'),
};

export type TokenAccess = { reachable: true; scope: RequiredScope } | { reachable: false };

/**
 * What a token needs for a route; undefined when the route is in neither the table nor an
 * unreachable prefix (the customer surface refuses to start then).
 */
export function tokenAccessOf(method: string, url: string): TokenAccess | undefined {
  if (TOKEN_UNREACHABLE_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`))) return { reachable: false };
  const scope = TOKEN_ROUTE_SCOPES[`${method} ${url}`];
  if (scope === undefined) return undefined;
  return scope === null ? { reachable: false } : { reachable: true, scope };
}

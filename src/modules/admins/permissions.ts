/**
 * The permission catalog: every backoffice route names exactly one of these (or 'public' /
 * 'authenticated'); `GET /api/backoffice/admin/permissions` serves this list with the route map.
 * Adding a permission here makes it known to the roles API; Super Admin gets it on the next start.
 */
export const PERMISSIONS = {
  view_dashboard: 'See the dashboard aggregates (customers, revenue, deposits, VMs, IPs)',
  view_users: 'List and view customers, their quotas and device sessions',
  edit_users: 'Edit customers: billing type, activation, identity verification, quotas',
  delete_user: 'Deactivate or delete customer accounts',
  impersonate_user: 'Act as a customer in a session marked with the admin (audited)',
  manage_sessions: "Revoke customers' device sessions and change their max_session",
  manage_2fa: "Force-disable a customer's two-factor authentication (with a reason)",
  view_billing: 'See top-up and postpaid invoices, credit history, export invoices',
  view_transactions: 'See incoming transactions and deposits of all customers',
  manage_balance: "Add to or deduct from a customer's wallet",
  verify_invoices: 'Verify manual payments of postpaid invoices (deposit reconciliation)',
  manage_coupons: 'Create, edit and disable top-up coupons, redeem codes and promotions',
  view_pricing: 'See components, prices per location and tier, and price schedules',
  manage_pricing: 'Schedule and cancel price changes of components, tiers and locations',
  view_tiers: 'See VM tier types and tiers',
  manage_tiers: 'Create and change VM tier types and tiers',
  view_block_storage: 'See block storage machines and storage tiers',
  manage_block_storage: 'Change block storage tiers',
  view_compute: "See customers' VMs (list with filters, one VM with its datacenter details), for support",
  operate_compute: "Act on a customer's VM for support: its browser console, power actions, rebuild and rescue (each audited, the customer told)",
  view_network: 'See the private networks and IP occupation of all customers',
  manage_network: 'Administer private networks and IPs of customers',
  view_settings: 'See application settings, theme colors and firewall rule types',
  manage_settings: 'Change application settings, theme colors, maintenance mode and firewall rule types',
  view_admins: 'List staff accounts',
  manage_admins: 'Create staff accounts, change their role, delete and restore them, reset passwords',
  view_roles: 'See roles, their permissions and the permission catalog',
  manage_roles: "Change a role's permissions (only Super Admin may sync)",
  view_audit_logs: 'Read the audit log',
  export_history: 'Export a month of the audit log or of the wallet ledger (CSV or JSON lines)',
  view_jobs: 'See the scheduled jobs and their last runs',
  manage_jobs: 'Run a job now (only Super Admin)',
  view_tickets: 'See support tickets, their conversations and the live ticket stream',
  manage_tickets: 'Reply to, prioritise, assign, close and archive support tickets',
  manage_announcements: 'Create, edit, publish and withdraw announcements and release notes',
} as const satisfies Record<string, string>;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];
export const PERMISSION_SET: ReadonlySet<string> = new Set(ALL_PERMISSIONS);

export function isPermission(p: string): p is Permission {
  return PERMISSION_SET.has(p);
}

export const SUPER_ADMIN = 'Super Admin';

/**
 * Permissions that move money or change what money buys: staff holding any of them must use TOTP
 * two-factor authentication while the staff-2fa setting is on (GET/PUT /api/backoffice/setting/staff-2fa).
 */
export const MONEY_PERMISSIONS: readonly Permission[] = ['manage_balance', 'verify_invoices', 'manage_coupons', 'manage_pricing'];

export interface BuiltinRole {
  name: string;
  description: string;
  /** Locked roles cannot be changed through the API. */
  locked: boolean;
  permissions: readonly Permission[];
}

const allBut = (...excluded: Permission[]) => ALL_PERMISSIONS.filter((p) => !excluded.includes(p));

/**
 * The five built-in roles (spec, Authentication item 10). Their permissions are seeded when the
 * role is first created; afterwards Super Admin changes them through the API (Super Admin itself
 * always holds every permission).
 */
export const BUILTIN_ROLES: readonly BuiltinRole[] = [
  {
    name: SUPER_ADMIN,
    description: 'All rights; the only role that syncs permissions, resets other admins\' passwords and deletes staff',
    locked: true,
    permissions: ALL_PERMISSIONS,
  },
  {
    name: 'Admin',
    description: 'Broad cloud and user management, no changes to the admin structure',
    locked: false,
    permissions: allBut('manage_admins', 'manage_roles', 'manage_jobs'),
  },
  {
    name: 'Admin Support',
    description: 'Customer list, device session revocation, impersonation, support tickets',
    locked: false,
    permissions: ['view_dashboard', 'view_users', 'manage_sessions', 'impersonate_user', 'view_tickets', 'manage_tickets', 'view_compute'],
  },
  {
    name: 'Admin Billing',
    description: 'Pricing of VM components, tiers and locations; redeem codes and top-up coupons',
    locked: false,
    permissions: ['view_dashboard', 'view_pricing', 'manage_pricing', 'view_tiers', 'manage_tiers', 'manage_coupons', 'view_billing'],
  },
  {
    name: 'Admin Sales',
    description: 'Incoming transactions, promotions, deposit reconciliation',
    locked: false,
    permissions: ['view_dashboard', 'view_users', 'view_transactions', 'view_billing', 'manage_coupons', 'verify_invoices'],
  },
];

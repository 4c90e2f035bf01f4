import { moneyJson } from '../../platform/money.js';
import type { CustomerRecord } from './customers.repository.js';
import { BUSINESS_FIELDS, MONEY_FIELDS, PERSONAL_FIELDS } from './customers.schemas.js';
import type { CustomerAccount } from './customers.service.js';

/* The customers module's answers (the customer's own and the staff's views of an account), mapped in one place. */

const ACCOUNT_TYPES: Record<string, string> = { P: 'Personal', B: 'Business' };
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const fullName = (c: CustomerRecord) => `${c.firstName} ${c.lastName}`.trim();

function personalOf(c: CustomerRecord) {
  return Object.fromEntries(PERSONAL_FIELDS.map((k) => [k, c.personalProfile[k] ?? null])) as Record<(typeof PERSONAL_FIELDS)[number], string | null>;
}

/** Empty object for personal accounts (docs/api.md, "Customer profile"). */
function businessOf(c: CustomerRecord) {
  if (c.accountType !== 'B') return {};
  return Object.fromEntries(BUSINESS_FIELDS.map((k) => [k, c.businessProfile[k] ?? null]));
}

export function notificationSettingView(c: CustomerRecord) {
  return { allow_marketing_email: c.allowMarketingEmail, allow_billing_reminder: c.allowBillingReminder };
}

/** What the caller may see of the account: a member whose role lacks billing:read sees no money. */
export interface Sees {
  money: boolean;
}
const SEES_ALL: Sees = { money: true };

/** GET /api/inf: who the customer is, the balances, the quotas (the money fields null when `sees.money` is false). */
export function customerSummaryView(c: CustomerAccount, sees: Sees = SEES_ALL) {
  const view = {
    id: c.id,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    full_name: fullName(c),
    is_active: c.isActive,
    is_registration_completed: c.isRegistrationCompleted,
    is_identity_verified: c.isIdentityVerified,
    is_2fa_active: c.is2faActive,
    account_type: c.accountType as 'P' | 'B',
    account_type_description: ACCOUNT_TYPES[c.accountType] ?? c.accountType,
    billing_type: c.billingType,
    // exact decimal texts from the wallet (never a float: Math.round(n*100)/100 turned …010000 into …009999)
    actual_balance: moneyJson(c.actualBalance),
    current_balance: moneyJson(c.currentBalance),
    unread_count: c.unreadCount,
    suspended_at: iso(c.suspendedAt),
    suspend_reason: c.suspendReason,
    do_not_suspend_until: iso(c.doNotSuspendUntil),
    reward_first_top_up: c.rewardFirstTopUp,
    reward_referral: c.rewardReferral,
    block_storage_limit: c.blockStorageLimit,
    loadbalancer_limit: c.loadbalancerLimit,
    object_storage_limit: c.objectStorageLimit,
    private_ip_limit: c.privateIpLimit,
    public_ip_limit: c.publicIpLimit,
    vm_limit: c.vmLimit,
    snapshot_limit: c.snapshotLimit,
    personal: personalOf(c),
    business: businessOf(c),
    notification_setting: notificationSettingView(c),
    withheld: [] as string[],
  };
  if (sees.money) return view;
  return { ...view, ...Object.fromEntries(MONEY_FIELDS.map((k) => [k, null])), withheld: [...MONEY_FIELDS] } as {
    [K in keyof typeof view]: K extends (typeof MONEY_FIELDS)[number] ? (typeof view)[K] | null : (typeof view)[K];
  };
}

/** GET /api/customer/profile (the balance null when `sees.money` is false) */
export function customerProfileView({ customer: c, actualBalance }: { customer: CustomerRecord; actualBalance: string }, sees: Sees = SEES_ALL) {
  return {
    id: c.id,
    firstname: c.firstName,
    lastname: c.lastName,
    full_name: fullName(c),
    email: c.email,
    account_type: c.accountType as 'P' | 'B',
    is_active: c.isActive,
    is_registration_completed: c.isRegistrationCompleted,
    is_identity_verified: c.isIdentityVerified,
    is_2fa_active: c.is2faActive,
    actual_balance: sees.money ? actualBalance : null,
    personal_profile: personalOf(c),
    business_profile: businessOf(c),
  };
}

/** GET /api/customer/resource: the VM and public IP quota and what is used of it. */
export function resourceQuotaView({ customer: c, usage }: { customer: CustomerRecord; usage: { vms: number; public_ips: number } }) {
  return { max_vm: c.vmLimit, current_vm: usage.vms, max_ip: c.publicIpLimit, current_ip: usage.public_ips };
}

/** A customer in the staff's list. */
export function customerListItemView(c: CustomerRecord) {
  return {
    id: c.id,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    full_name: fullName(c),
    account_type: c.accountType as 'P' | 'B',
    billing_type: c.billingType,
    is_active: c.isActive,
    is_registration_completed: c.isRegistrationCompleted,
    is_identity_verified: c.isIdentityVerified,
    is_2fa_active: c.is2faActive,
    suspended_at: iso(c.suspendedAt),
    created_at: c.createdAt.toISOString(),
  };
}

/** One customer for staff: the summary with max_session and the account's dates. */
export function customerDetailView(c: CustomerAccount) {
  return {
    ...(customerSummaryView(c) as ReturnType<typeof customerSummaryView> & { [K in (typeof MONEY_FIELDS)[number]]: NonNullable<ReturnType<typeof customerSummaryView>[K]> }),
    max_session: c.maxSession,
    email_verified_at: iso(c.emailVerifiedAt),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

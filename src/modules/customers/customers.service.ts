import { Value } from 'typebox/value';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import { moneyJson } from '../../platform/money.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import type { LookupsService } from '../lookups/index.js';
import type { BalanceReader, ResourceUsageReader, SessionLimiter, UnreadCounter } from './customers.ports.js';
import type { CustomerRecord, CustomersRepository, CustomerUpdate } from './customers.repository.js';
import { AdminCustomerPatch, BUSINESS_FIELDS, PERSONAL_FIELDS, type NotificationPatch, type ProfilePatch } from './customers.schemas.js';

export interface CustomersPorts {
  balances: BalanceReader;
  usage: ResourceUsageReader;
  notifications: UnreadCounter;
  sessionLimits: SessionLimiter;
}

const ACCOUNT_TYPES: Record<string, string> = { P: 'Personal', B: 'Business' };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function personalOf(c: CustomerRecord) {
  return Object.fromEntries(PERSONAL_FIELDS.map((k) => [k, c.personalProfile[k] ?? null])) as Record<(typeof PERSONAL_FIELDS)[number], string | null>;
}

/** Empty object for personal accounts (spec 2). */
function businessOf(c: CustomerRecord) {
  if (c.accountType !== 'B') return {};
  return Object.fromEntries(BUSINESS_FIELDS.map((k) => [k, c.businessProfile[k] ?? null]));
}

/** Profile, summary and quota of the customer; the staff's list, detail and update. */
export class CustomersService {
  constructor(
    private readonly db: Database,
    private readonly repo: CustomersRepository,
    private readonly lookups: LookupsService,
    private readonly ports: CustomersPorts,
    private readonly clock: Clock,
  ) {}

  private async load(id: number, ex: Executor = this.db): Promise<CustomerRecord> {
    const c = await this.repo.find(ex, id);
    if (!c) throw new NotFoundError('Customer');
    return c;
  }

  /**
   * The customer, the balances and the unread count: one query when the ports offer their columns
   * (GET /api/inf is then one round trip after authentication), else the reads at once.
   */
  private async loadSummary(id: number, ex: Executor): Promise<{ c: CustomerRecord; balances: { actual_balance: string; current_balance: string }; unread: number }> {
    const joinable = this.ports.balances.balanceColumns;
    if (joinable) {
      const row = await this.repo.findWithBalances(ex, id, joinable, this.ports.notifications.unreadCountOf?.bind(this.ports.notifications));
      if (!row) throw new NotFoundError('Customer');
      const { actualBalance, currentBalance, unreadCount, ...c } = row;
      return {
        c,
        balances: { actual_balance: moneyJson(actualBalance ?? '0'), current_balance: moneyJson(currentBalance ?? '0') },
        unread: unreadCount ?? (await this.ports.notifications.unreadCount(id)),
      };
    }
    const [c, balances, unread] = await Promise.all([this.load(id, ex), this.ports.balances.balancesOf(id), this.ports.notifications.unreadCount(id)]);
    return { c, balances, unread };
  }

  /** GET /api/inf */
  async summary(id: number, ex: Executor = this.db) {
    const { c, balances, unread } = await this.loadSummary(id, ex);
    return {
      id: c.id,
      email: c.email,
      first_name: c.firstName,
      last_name: c.lastName,
      full_name: `${c.firstName} ${c.lastName}`.trim(),
      is_active: c.isActive,
      is_registration_completed: c.isRegistrationCompleted,
      is_identity_verified: c.isIdentityVerified,
      is_2fa_active: c.is2faActive,
      account_type: c.accountType as 'P' | 'B',
      account_type_description: ACCOUNT_TYPES[c.accountType] ?? c.accountType,
      billing_type: c.billingType,
      // exact decimal texts from the wallet (never a float: Math.round(n*100)/100 turned …010000 into …009999)
      actual_balance: balances.actual_balance,
      current_balance: balances.current_balance,
      unread_count: unread,
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
      personal: personalOf(c),
      business: businessOf(c),
      notification_setting: { allow_marketing_email: c.allowMarketingEmail, allow_billing_reminder: c.allowBillingReminder },
    };
  }

  /** GET /api/customer/profile */
  async profile(id: number) {
    const c = await this.load(id);
    const { actual_balance } = await this.ports.balances.balancesOf(id);
    return {
      id: c.id,
      firstname: c.firstName,
      lastname: c.lastName,
      full_name: `${c.firstName} ${c.lastName}`.trim(),
      email: c.email,
      account_type: c.accountType as 'P' | 'B',
      is_active: c.isActive,
      is_registration_completed: c.isRegistrationCompleted,
      is_identity_verified: c.isIdentityVerified,
      is_2fa_active: c.is2faActive,
      actual_balance,
      personal_profile: personalOf(c),
      business_profile: businessOf(c),
    };
  }

  /** PATCH /api/customer/profile: merges the given fields; geographic ids must form a chain of the reference data. */
  async updateProfile(id: number, patch: ProfilePatch) {
    const c = await this.load(id);
    const accountType = patch.account_type ?? c.accountType;
    if (patch.business_profile && accountType !== 'B') {
      throw new ValidationError('Validation failed', [{ field: 'business_profile', message: 'is only for business accounts (account_type B)' }]);
    }
    const clean = (o: Record<string, string | null | undefined>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v.trim() || null : (v ?? null)]));
    const personal = { ...c.personalProfile, ...clean(patch.personal_profile ?? {}) };
    const business = { ...c.businessProfile, ...clean(patch.business_profile ?? {}) };
    if (patch.personal_profile) await this.checkArea(personal);
    const values: CustomerUpdate = {
      ...(patch.firstname !== undefined ? { firstName: patch.firstname.trim() } : {}),
      ...(patch.lastname !== undefined ? { lastName: patch.lastname.trim() } : {}),
      ...(patch.account_type !== undefined ? { accountType: patch.account_type } : {}),
      ...(patch.personal_profile ? { personalProfile: personal } : {}),
      ...(patch.business_profile ? { businessProfile: business } : {}),
    };
    // in a transaction: the activity entry of the request commits with the change
    await this.db.transaction(() => this.repo.update(this.db, id, values, this.clock.now()));
    return this.profile(id);
  }

  private async checkArea(p: Record<string, string | null>) {
    const num = (k: string) => (p[k] ? Number(p[k]) : undefined);
    const ids = { countryId: num('country_id'), provinceId: num('province_id'), cityId: num('city_id'), districtId: num('district_id') };
    const found = await this.lookups.areaChainExists(ids);
    const errors: FieldError[] = [];
    if (!found.country) errors.push({ field: 'personal_profile.country_id', message: 'is not a known country' });
    if (!found.province) errors.push({ field: 'personal_profile.province_id', message: 'is not a known province of the country' });
    if (!found.city) errors.push({ field: 'personal_profile.city_id', message: 'is not a known city of the province' });
    if (!found.district) errors.push({ field: 'personal_profile.district_id', message: 'is not a known district of the city' });
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
  }

  async updateNotificationSetting(id: number, patch: NotificationPatch) {
    await this.load(id);
    const values = {
      ...(patch.allow_marketing_email !== undefined ? { allowMarketingEmail: patch.allow_marketing_email } : {}),
      ...(patch.allow_billing_reminder !== undefined ? { allowBillingReminder: patch.allow_billing_reminder } : {}),
    };
    await this.db.transaction(() => this.repo.update(this.db, id, values, this.clock.now()));
    return (await this.summary(id)).notification_setting;
  }

  /** GET /api/customer/resource */
  async resource(id: number) {
    const c = await this.load(id);
    const usage = await this.ports.usage.usageOf(id);
    return { max_vm: c.vmLimit, current_vm: usage.vms, max_ip: c.publicIpLimit, current_ip: usage.public_ips };
  }

  // ---- staff (backoffice routes call these) -------------------------------------------------

  async list(page: PageRequest, search?: string): Promise<Page<ReturnType<typeof listItem>>> {
    const { items, total } = await this.repo.list(this.db, { search, limit: page.limit, offset: offsetOf(page) });
    return { items: items.map(listItem), total };
  }

  async detail(id: number, ex: Executor = this.db) {
    const summary = await this.summary(id, ex);
    const c = await this.load(id, ex);
    return { ...summary, max_session: c.maxSession, email_verified_at: iso(c.emailVerifiedAt), created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString() };
  }

  /**
   * PATCH /api/backoffice/customer/{id}; returns the detail before and after, for the audit log.
   * Runs in `tx` when given (the caller records the audit entry in the same transaction).
   */
  async adminUpdate(id: number, patch: AdminCustomerPatch, tx?: Executor) {
    return tx ? this.applyAdminUpdate(tx, id, patch) : this.db.transaction((t) => this.applyAdminUpdate(t, id, patch));
  }

  private async applyAdminUpdate(tx: Executor, id: number, patch: AdminCustomerPatch) {
    if (!Value.Check(AdminCustomerPatch, patch)) {
      const errors = [...Value.Errors(AdminCustomerPatch, patch)].map((e) => ({ field: e.instancePath.replace(/^\//, '') || 'body', message: e.message }));
      throw new ValidationError('Validation failed', errors);
    }
    const before = await this.detail(id, tx);
    const values: CustomerUpdate = {};
    if (patch.billing_type !== undefined) values.billingType = patch.billing_type;
    if (patch.is_active !== undefined) values.isActive = patch.is_active;
    if (patch.is_identity_verified !== undefined) values.isIdentityVerified = patch.is_identity_verified;
    if (patch.do_not_suspend_until !== undefined) values.doNotSuspendUntil = patch.do_not_suspend_until ? new Date(patch.do_not_suspend_until) : null;
    if (patch.block_storage_limit !== undefined) values.blockStorageLimit = patch.block_storage_limit;
    if (patch.loadbalancer_limit !== undefined) values.loadbalancerLimit = patch.loadbalancer_limit;
    if (patch.object_storage_limit !== undefined) values.objectStorageLimit = patch.object_storage_limit;
    if (patch.private_ip_limit !== undefined) values.privateIpLimit = patch.private_ip_limit;
    if (patch.public_ip_limit !== undefined) values.publicIpLimit = patch.public_ip_limit;
    if (patch.vm_limit !== undefined) values.vmLimit = patch.vm_limit;
    if (Object.keys(values).length > 0) await this.repo.update(tx, id, values, this.clock.now());
    if (patch.max_session !== undefined) await this.ports.sessionLimits.setMaxSession(id, patch.max_session, tx);
    return { before, after: await this.detail(id, tx) };
  }
}

function listItem(c: CustomerRecord) {
  return {
    id: c.id,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    full_name: `${c.firstName} ${c.lastName}`.trim(),
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

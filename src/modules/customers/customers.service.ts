import { Value } from 'typebox/value';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import type { LookupsService } from '../lookups/index.js';
import type { BalanceReader, ResourceUsageReader, SessionLimiter, UnreadCounter } from './customers.ports.js';
import type { CustomerRecord, CustomersRepository, CustomerUpdate, SummaryRow } from './customers.repository.js';
import type { RiderRead } from '../../platform/db/prepared.js';
import { AdminCustomerPatch, type NotificationPatch, type ProfilePatch } from './customers.schemas.js';

export interface CustomersPorts {
  balances: BalanceReader;
  usage: ResourceUsageReader;
  notifications: UnreadCounter;
  sessionLimits: SessionLimiter;
}

/** A customer with the wallet's balances (decimal texts) and the count of unread notifications. */
export type CustomerAccount = CustomerRecord & { actualBalance: string; currentBalance: string; unreadCount: number };

/** Profile, summary and quota of the customer; the staff's list, detail and update. */
export class CustomersService {
  constructor(
    private readonly db: Database,
    private readonly repo: CustomersRepository,
    private readonly lookups: LookupsService,
    private readonly ports: CustomersPorts,
    private readonly clock: Clock,
  ) {}

  /** The e-mail addresses of customers by id (the people of an activity log). */
  async emailsOf(ids: number[]): Promise<Map<number, string>> {
    return new Map((await this.repo.emailsOf(this.db, ids)).map((r) => [r.id, r.email]));
  }

  private async load(id: number, ex: Executor = this.db): Promise<CustomerRecord> {
    const c = await this.repo.find(ex, id);
    if (!c) throw new NotFoundError('Customer');
    return c;
  }

  /**
   * The customer, the balances and the unread count: one query when the ports offer their columns
   * (GET /api/inf is then one round trip after authentication), else the reads at once.
   */
  private async loadSummary(id: number, ex: Executor, read?: SummaryRow): Promise<CustomerAccount> {
    const joinable = this.ports.balances.balanceColumns;
    if (joinable) {
      const row = read ?? (await this.repo.findWithBalances(ex, id, joinable, this.ports.notifications.unreadCountOf?.bind(this.ports.notifications)));
      if (!row) throw new NotFoundError('Customer');
      const { actualBalance, currentBalance, unreadCount, ...c } = row;
      return { ...c, actualBalance: actualBalance ?? '0', currentBalance: currentBalance ?? '0', unreadCount: unreadCount ?? (await this.ports.notifications.unreadCount(id)) };
    }
    const [c, balances, unread] = await Promise.all([this.load(id, ex), this.ports.balances.balancesOf(id), this.ports.notifications.unreadCount(id)]);
    return { ...c, actualBalance: balances.actual_balance, currentBalance: balances.current_balance, unreadCount: unread };
  }

  /**
   * GET /api/inf's read, to run in the statement that authenticates the request (undefined when
   * the ports offer no columns to join).
   */
  readonly summaryRider = (): RiderRead<SummaryRow> | undefined => {
    const joinable = this.ports.balances.balanceColumns;
    return joinable && this.repo.summaryRead(joinable, this.ports.notifications.unreadCountOf?.bind(this.ports.notifications));
  };

  /** GET /api/inf; `read` is summaryRider's row when the authentication read it. */
  summary(id: number, ex: Executor = this.db, read?: SummaryRow): Promise<CustomerAccount> {
    return this.loadSummary(id, ex, read);
  }

  /** GET /api/customer/profile: the customer and the actual balance. */
  async profile(id: number): Promise<{ customer: CustomerRecord; actualBalance: string }> {
    const customer = await this.load(id);
    const { actual_balance } = await this.ports.balances.balancesOf(id);
    return { customer, actualBalance: actual_balance };
  }

  /** PATCH /api/customer/profile: merges the given fields; geographic ids must form a chain of the reference data. */
  async updateProfile(id: number, patch: ProfilePatch): Promise<{ customer: CustomerRecord; actualBalance: string }> {
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

  async updateNotificationSetting(id: number, patch: NotificationPatch): Promise<CustomerRecord> {
    await this.load(id);
    const values = {
      ...(patch.allow_marketing_email !== undefined ? { allowMarketingEmail: patch.allow_marketing_email } : {}),
      ...(patch.allow_billing_reminder !== undefined ? { allowBillingReminder: patch.allow_billing_reminder } : {}),
    };
    await this.db.transaction(() => this.repo.update(this.db, id, values, this.clock.now()));
    return this.load(id);
  }

  /** GET /api/customer/resource */
  async resource(id: number): Promise<{ customer: CustomerRecord; usage: { vms: number; public_ips: number } }> {
    const customer = await this.load(id);
    return { customer, usage: await this.ports.usage.usageOf(id) };
  }

  // ---- staff (backoffice routes call these) -------------------------------------------------

  list(page: PageRequest, search?: string): Promise<Page<CustomerRecord>> {
    return this.repo.list(this.db, { search, limit: page.limit, offset: offsetOf(page) });
  }

  /**
   * Who a receipt or invoice is made out to: the business name (business accounts), the person and
   * e-mail, and the tax number when the profile has one.
   */
  async billToLines(id: number): Promise<string[]> {
    const c = await this.repo.find(this.db, id);
    if (!c) return [];
    const business = c.accountType === 'B' ? c.businessProfile : {};
    const taxNumber = business.tax_number || c.personalProfile.tax_number;
    return [
      ...(business.name ? [business.name] : []),
      `${c.firstName} ${c.lastName}`.trim(),
      c.email,
      ...(taxNumber ? [`Tax number: ${taxNumber}`] : []),
    ];
  }

  /** The customer with balances and unread count, for staff (404 for an unknown id). */
  detail(id: number, ex: Executor = this.db): Promise<CustomerAccount> {
    return this.loadSummary(id, ex);
  }

  /**
   * PATCH /api/backoffice/customer/{id}; returns the detail before and after, for the audit log.
   * Runs in `tx` when given (the caller records the audit entry in the same transaction).
   */
  async adminUpdate(id: number, patch: AdminCustomerPatch, tx?: Executor): Promise<{ before: CustomerAccount; after: CustomerAccount }> {
    return tx ? this.applyAdminUpdate(tx, id, patch) : this.db.transaction((t) => this.applyAdminUpdate(t, id, patch));
  }

  private async applyAdminUpdate(tx: Executor, id: number, patch: AdminCustomerPatch): Promise<{ before: CustomerAccount; after: CustomerAccount }> {
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
    if (patch.snapshot_limit !== undefined) values.snapshotLimit = patch.snapshot_limit;
    if (Object.keys(values).length > 0) await this.repo.update(tx, id, values, this.clock.now());
    if (patch.max_session !== undefined) await this.ports.sessionLimits.setMaxSession(id, patch.max_session, tx);
    return { before, after: await this.detail(id, tx) };
  }
}

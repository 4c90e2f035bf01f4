import type { Database } from '../../platform/db/database.js';
import { ConflictError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { AccountAccess, ClientMeta, IssuedSession, SessionService, TwoFactorService } from '../auth/index.js';
import { customerDetailView, type AdminCustomerPatch, type CustomerAccount, type CustomerRecord, type CustomersService } from '../customers/index.js';
import type { Page } from '../../platform/http/pagination.js';
import type { CustomerResourceRow, CustomerResourcesRepository, ResourceKind } from './customer-resources.repository.js';

/** The fields of a detail that a patch can touch: what the audit entry keeps. */
function picked(detail: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, detail[k] ?? null]));
}

/**
 * Staff work on customer accounts (docs/api.md, "Customer administration, sessions and 2FA"; docs/decisions.md §3 and §8): list, detail, update, device
 * sessions, max_session, forced 2FA switch-off, impersonation. Each write is audited in its transaction.
 */
export class CustomerAdminService {
  constructor(
    private readonly db: Database,
    private readonly customers: CustomersService,
    private readonly sessions: SessionService,
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditService,
    private readonly mailer: Mailer,
    private readonly access: AccountAccess,
    private readonly resourcesRepo: CustomerResourcesRepository,
  ) {}

  list(page: PageRequest, search?: string): Promise<Page<CustomerRecord>> {
    return this.customers.list(page, search?.trim() || undefined);
  }

  detail(id: number): Promise<CustomerAccount> {
    return this.customers.detail(id);
  }

  /** What the customer runs (every kind, or one), newest first; 404 for an unknown customer. */
  async resources(id: number, kind: ResourceKind | undefined, page: PageRequest): Promise<Page<CustomerResourceRow>> {
    await this.customers.detail(id);
    return this.resourcesRepo.list(this.db, id, kind, page);
  }

  /**
   * A switch of `is_active` either way ends every session and API token and voids the mailed links:
   * a deactivated account is shut for good, and reactivating it revives nothing issued before
   * (also for an account switched off before this rule, whose sessions were only refused).
   */
  async update(actor: Actor, id: number, patch: AdminCustomerPatch): Promise<CustomerAccount> {
    return this.db.transaction(async (tx) => {
      const { before, after } = await this.customers.adminUpdate(id, patch, tx);
      const keys = Object.keys(patch);
      const ended = before.isActive === after.isActive ? undefined : await this.access.endAll(tx, id, after.isActive ? 'reactivated' : 'deactivated', 'staff');
      await this.audit.record(tx, {
        actor,
        action: 'customer.updated',
        targetType: 'customer',
        targetId: id,
        before: picked(customerDetailView(before), keys),
        after: { ...picked(customerDetailView(after), keys), ...(ended ? { sessions_revoked: ended.sessions, api_tokens_revoked: ended.api_tokens } : {}) },
      });
      return after;
    });
  }

  async deviceSessions(id: number) {
    await this.customers.detail(id);
    return this.sessions.list(id);
  }

  /** `sid` is a session id or 'all'. */
  async revokeSessions(actor: Actor, customerId: number, sid: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await this.customers.detail(customerId, tx);
      const revoked = await this.sessions.revoke(customerId, sid === 'all' ? 'all' : sid, 'revoked by staff', tx);
      await this.audit.record(tx, { actor, action: 'customer.sessions_revoked', targetType: 'customer', targetId: customerId, after: { session: sid, revoked } });
      return revoked;
    });
  }

  /** Sets max_session; how many sessions beyond it ended. */
  async setMaxSession(actor: Actor, customerId: number, maxSession: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const before = await this.customers.detail(customerId, tx);
      const { revoked } = await this.sessions.setMaxSession(customerId, maxSession, tx);
      await this.audit.record(tx, {
        actor,
        action: 'customer.max_session_changed',
        targetType: 'customer',
        targetId: customerId,
        before: { max_session: before.maxSession },
        after: { max_session: maxSession, sessions_revoked: revoked },
      });
      return revoked;
    });
  }

  /** Switches the customer's 2FA off (409 when it is off), keeps the reason in the audit log and tells the customer. */
  async forceDisable2fa(actor: Actor, customerId: number, reason: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      const customer = await this.customers.detail(customerId, tx);
      if (!customer.is2faActive) throw new ConflictError('Two-factor authentication is not on for this customer', 'TWO_FACTOR_OFF');
      await this.twoFactor.forceDisable(customerId, tx);
      // A recovery through support: the lost second factor often went with a device that holds a session or a token.
      const ended = await this.access.endAll(tx, customerId, '2fa_reset', 'staff');
      await this.audit.record(tx, {
        actor,
        action: 'customer.2fa_force_disabled',
        targetType: 'customer',
        targetId: customerId,
        before: { is_2fa_active: true },
        after: { is_2fa_active: false, reason, sessions_revoked: ended.sessions, api_tokens_revoked: ended.api_tokens },
      });
      await this.mailer.queueMail(
        customer.email,
        noticeMail({
          template: '2fa_force_disabled',
          subject: 'Two-factor authentication was turned off on your account',
          lines: [
            `Hello ${`${customer.firstName} ${customer.lastName}`.trim()},`,
            'Our support team turned off two-factor authentication on your account.',
            `Reason: ${reason}`,
            'Every device was logged out and every API token of the account was revoked: create new tokens for your scripts once you are back in.',
            'You can now log in with your e-mail and password only. We recommend turning two-factor authentication on again in your security settings. If you did not ask for this, contact support at once.',
          ],
        }),
        tx,
      );
    });
  }

  /** A customer session marked with the admin's id (every request in it is audited). */
  async impersonate(actor: Actor, customerId: number, meta: ClientMeta): Promise<IssuedSession> {
    return this.db.transaction(async (tx) => {
      await this.customers.detail(customerId, tx);
      const issued = await this.sessions.impersonate(customerId, actor.id!, meta, tx);
      await this.audit.record(tx, {
        actor,
        action: 'customer.impersonation_started',
        targetType: 'customer',
        targetId: customerId,
        after: { session_id: issued.sessionId },
      });
      return issued;
    });
  }
}

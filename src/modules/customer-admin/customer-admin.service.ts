import type { Database } from '../../platform/db/database.js';
import { ConflictError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { ClientMeta, IssuedSession, SessionService, TwoFactorService } from '../auth/index.js';
import type { AdminCustomerPatch, CustomersService } from '../customers/index.js';

/** The fields of a detail that a patch can touch: what the audit entry keeps. */
function picked(detail: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, detail[k] ?? null]));
}

/**
 * Staff work on customer accounts (spec 4.12, docs/decisions.md §3 and §8): list, detail, update, device
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
  ) {}

  list(page: PageRequest, search?: string) {
    return this.customers.list(page, search?.trim() || undefined);
  }

  detail(id: number) {
    return this.customers.detail(id);
  }

  async update(actor: Actor, id: number, patch: AdminCustomerPatch) {
    return this.db.transaction(async (tx) => {
      const { before, after } = await this.customers.adminUpdate(id, patch, tx);
      const keys = Object.keys(patch);
      await this.audit.record(tx, {
        actor,
        action: 'customer.updated',
        targetType: 'customer',
        targetId: id,
        before: picked(before, keys),
        after: picked(after, keys),
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

  async setMaxSession(actor: Actor, customerId: number, maxSession: number) {
    return this.db.transaction(async (tx) => {
      const before = await this.customers.detail(customerId, tx);
      const { revoked } = await this.sessions.setMaxSession(customerId, maxSession, tx);
      await this.audit.record(tx, {
        actor,
        action: 'customer.max_session_changed',
        targetType: 'customer',
        targetId: customerId,
        before: { max_session: before.max_session },
        after: { max_session: maxSession, sessions_revoked: revoked },
      });
      return { customer_id: customerId, max_session: maxSession, sessions_revoked: revoked };
    });
  }

  /** Switches the customer's 2FA off (409 when it is off), keeps the reason in the audit log and tells the customer. */
  async forceDisable2fa(actor: Actor, customerId: number, reason: string) {
    return this.db.transaction(async (tx) => {
      const customer = await this.customers.detail(customerId, tx);
      if (!customer.is_2fa_active) throw new ConflictError('Two-factor authentication is not on for this customer', 'TWO_FACTOR_OFF');
      await this.twoFactor.forceDisable(customerId, tx);
      await this.audit.record(tx, {
        actor,
        action: 'customer.2fa_force_disabled',
        targetType: 'customer',
        targetId: customerId,
        before: { is_2fa_active: true },
        after: { is_2fa_active: false, reason },
      });
      await this.mailer.queueMail(
        customer.email,
        noticeMail({
          template: '2fa_force_disabled',
          subject: 'Two-factor authentication was turned off on your account',
          lines: [
            `Hello ${customer.full_name},`,
            'Our support team turned off two-factor authentication on your account.',
            `Reason: ${reason}`,
            'You can now log in with your e-mail and password only. We recommend turning two-factor authentication on again in your security settings. If you did not ask for this, contact support at once.',
          ],
        }),
        tx,
      );
      return { customer_id: customerId, is_2fa_active: false };
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

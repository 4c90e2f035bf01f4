import type { Clock } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { AuthRepository } from './auth.repository.js';
import type { SessionService } from './sessions.service.js';

/**
 * What auth asks the API tokens module about a customer's personal access tokens (a port: auth
 * knows no token table; ApiTokensService answers).
 */
export interface AccountApiTokens {
  /** Revokes every live token of the customer in the caller's transaction; how many. */
  revokeAllIn(tx: Executor, customerId: number, by: 'customer' | 'staff'): Promise<number>;
  /** Lines for a security notice: the tokens that still work and how to revoke them all. */
  liveTokensNotice(ex: Executor, customerId: number): Promise<string[]>;
}

/** Why everything ends: the recoveries and staff's switch of `is_active`. */
export type AccessEnd = 'password_reset' | '2fa_reset' | 'deactivated' | 'reactivated';

/**
 * Every way into a customer account that outlives one request: device sessions, personal API
 * tokens, mailed links (password reset, e-mail change) and half-done 2FA logins.
 *
 * The rule (docs/api.md, "Account recovery"): when the account is taken back through another
 * channel (a password reset by mail, support's reset of the second factor) or switched off or on by
 * staff, all of them end, so nothing issued before works again. A change the signed-in owner makes
 * with their current credentials (password or e-mail change) ends the other sessions only, keeps
 * the tokens, and its notice lists them with the way to revoke them all.
 */
export class AccountAccess {
  constructor(
    private readonly sessions: SessionService,
    private readonly repo: AuthRepository,
    private readonly apiTokens: AccountApiTokens,
    private readonly clock: Clock,
  ) {}

  /** Ends every session and API token and voids the mailed links and 2FA challenges, in the caller's transaction. */
  async endAll(tx: Executor, customerId: number, reason: AccessEnd, by: 'customer' | 'staff'): Promise<{ sessions: number; api_tokens: number }> {
    const now = this.clock.now();
    const sessions = await this.sessions.revokeOthers(tx, customerId, undefined, reason);
    const apiTokens = await this.apiTokens.revokeAllIn(tx, customerId, by);
    await this.repo.voidTokens(tx, customerId, ['password_reset', 'email_change_otp', 'email_change_verified', 'email_change_link'], now);
    await this.repo.voidChallenges(tx, customerId, now);
    return { sessions, api_tokens: apiTokens };
  }

  /** The notice lines about the tokens a change kept (see the class comment). */
  liveTokensNotice(ex: Executor, customerId: number): Promise<string[]> {
    return this.apiTokens.liveTokensNotice(ex, customerId);
  }
}

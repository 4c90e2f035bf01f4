import type { Clock } from '../../platform/clock.js';
import { hmacHex, newSalt, randomDigits, randomToken, safeEqualHex, sha256Hex } from '../../platform/crypto/index.js';
import type { Database } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { linkMail, noticeMail, otpMail } from '../../platform/mail/templates.js';
import type { AccountAccess } from './account-access.js';
import type { AuthRepository } from './auth.repository.js';
import type { IssuedSession, SessionService } from './sessions.service.js';
import { SecurityAction, type SecurityEvents } from './security-events.js';

export const EMAIL_OTP_TTL_MINUTES = 10;
export const EMAIL_STEP_TOKEN_TTL_MINUTES = 15;
export const EMAIL_LINK_TTL_HOURS = 24;
/** Codes checked against one OTP, right or wrong, before it is void. */
export const MAX_OTP_ATTEMPTS = 5;

const invalidCode = () => new BadRequestError('INVALID_CODE', 'The code is wrong, expired or already used');
const invalidToken = () => new BadRequestError('INVALID_TOKEN', 'The token is invalid, expired or already used');

/**
 * Change of e-mail in four steps (docs/api.md, "Customer authentication"): OTP to the current address → intermediate token →
 * link to the new address → the link's token replaces the address, re-issues this session's
 * cookies and ends every other session.
 */
export class ChangeEmailService {
  constructor(
    private readonly db: Database,
    private readonly repo: AuthRepository,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly opts: { linkBase: string; otpKey: string },
    private readonly events: SecurityEvents,
    private readonly access: AccountAccess,
  ) {}

  /** Sends a code to the current address; when it expires. */
  async request(customerId: number): Promise<Date> {
    const customer = await this.customer(customerId);
    const now = this.clock.now();
    const code = randomDigits(6);
    const salt = newSalt();
    const expiresAt = new Date(now.getTime() + EMAIL_OTP_TTL_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      await this.repo.voidTokens(tx, customerId, ['email_change_otp', 'email_change_verified', 'email_change_link'], now);
      await this.repo.insertToken(tx, { customerId, purpose: 'email_change_otp', tokenHash: this.otpHash(customerId, salt, code), payload: { salt }, expiresAt, now });
      await this.mailer.queueMail(customer.email, otpMail({ code, purpose: 'change the e-mail address of your account', validMinutes: EMAIL_OTP_TTL_MINUTES }), tx);
      await this.events.record(tx, SecurityAction.emailChangeRequested, customerId);
    });
    return expiresAt;
  }

  async verifyOld(customerId: number, code: string): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    // The attempt is counted in the same statement that hands out the code's hash, so parallel
    // guesses cannot check more than MAX_OTP_ATTEMPTS codes between them.
    const row = await this.repo.claimOtpAttempt(this.db, customerId, 'email_change_otp', MAX_OTP_ATTEMPTS, now);
    if (!row || !/^\d{6}$/.test(code) || !safeEqualHex(this.otpHash(customerId, row.payload.salt ?? '', code), row.tokenHash)) throw invalidCode();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + EMAIL_STEP_TOKEN_TTL_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      if (!(await this.repo.consumeToken(tx, row.id, now))) throw invalidCode();
      await this.repo.insertToken(tx, { customerId, purpose: 'email_change_verified', tokenHash: sha256Hex(token), expiresAt, now });
    });
    return { token, expiresAt };
  }

  async sendNew(customerId: number, input: { token: string; new_email: string }): Promise<void> {
    const now = this.clock.now();
    const newEmail = input.new_email.trim();
    const step = await this.repo.findLiveToken(this.db, 'email_change_verified', sha256Hex(input.token), now);
    if (!step || step.customerId !== customerId) throw invalidToken();
    const customer = await this.customer(customerId);
    if (customer.email.toLowerCase() === newEmail.toLowerCase()) {
      throw new BadRequestError('VALIDATION_FAILED', 'The new e-mail address is the current one', [{ field: 'new_email', message: 'is your current address' }]);
    }
    if (await this.repo.emailTaken(this.db, newEmail)) throw new ConflictError('This e-mail address is already registered', 'EMAIL_TAKEN');
    const link = randomToken();
    await this.db.transaction(async (tx) => {
      if (!(await this.repo.consumeToken(tx, step.id, now))) throw invalidToken();
      await this.repo.voidTokens(tx, customerId, ['email_change_link'], now);
      await this.repo.insertToken(tx, {
        customerId,
        purpose: 'email_change_link',
        tokenHash: sha256Hex(link),
        payload: { new_email: newEmail },
        expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_HOURS * 3600_000),
        now,
      });
      const mail = linkMail({
        template: 'email-change-confirm',
        subject: 'Confirm your new e-mail address',
        intro: `Open the link below to make ${newEmail} the e-mail address of your account.`,
        url: `${this.opts.linkBase}/account/change-email/confirm?token=${encodeURIComponent(link)}`,
        validHours: EMAIL_LINK_TTL_HOURS,
      });
      await this.mailer.queueMail(newEmail, mail, tx);
    });
  }

  async confirmNew(customerId: number, sessionId: string, token: string): Promise<{ email: string; session: IssuedSession }> {
    const now = this.clock.now();
    const oldEmail = (await this.customer(customerId)).email;
    return this.db.transaction(async (tx) => {
      const row = await this.repo.findLiveToken(tx, 'email_change_link', sha256Hex(token), now);
      if (!row || row.customerId !== customerId || !row.payload.new_email) throw invalidToken();
      const newEmail = row.payload.new_email;
      if (await this.repo.emailTaken(tx, newEmail, customerId)) throw new ConflictError('This e-mail address is already registered', 'EMAIL_TAKEN');
      if (!(await this.repo.consumeToken(tx, row.id, now))) throw invalidToken();
      await this.repo.updateEmail(tx, customerId, newEmail, now);
      const revoked = await this.sessions.revokeOthers(tx, customerId, sessionId, 'email_changed');
      await this.events.record(tx, SecurityAction.emailChanged, customerId, { before: oldEmail, after: newEmail, other_sessions_revoked: revoked });
      // A reset link mailed to the old address and a half-done 2FA login must not outlive the change.
      await this.repo.voidTokens(tx, customerId, ['password_reset'], now);
      await this.repo.voidChallenges(tx, customerId, now);
      const session = await this.sessions.reissue(tx, sessionId);
      await this.mailer.queueMail(
        oldEmail,
        noticeMail({
          template: 'email-changed',
          subject: 'Your e-mail address was changed',
          lines: [
            `The e-mail address of your account is now ${newEmail}. Your other devices were logged out.`,
            // Made with the current session and a code from this mailbox: the tokens stay, listed here.
            ...(await this.access.liveTokensNotice(tx, customerId)),
            'If this was not you, contact support at once.',
          ],
        }),
        tx,
      );
      return { email: newEmail, session };
    });
  }

  private otpHash(customerId: number, salt: string, code: string): string {
    return hmacHex(this.opts.otpKey, `email-otp:${customerId}:${salt}:${code}`);
  }

  private async customer(customerId: number) {
    const c = await this.repo.findById(this.db, customerId);
    if (!c) throw new NotFoundError('Customer');
    return c;
  }
}

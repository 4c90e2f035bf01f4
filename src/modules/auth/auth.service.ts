import type { Clock } from '../../platform/clock.js';
import {
  decryptSecret,
  findRecoveryCode,
  hashPassword,
  matchTotp,
  randomToken,
  RECOVERY_CODE_PATTERN,
  sha256Hex,
  verifyAgainstDummy,
  verifyPassword,
} from '../../platform/crypto/index.js';
import { accountSubject, unknownEmailSubject, type AccountLock } from '../../platform/account-lock/account-lock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import { linkMail, noticeMail } from '../../platform/mail/templates.js';
import type { AccountAccess } from './account-access.js';
import type { AuthRepository, Credentials } from './auth.repository.js';
import { CHALLENGE_TTL_SECONDS, type CustomerTokens } from './auth.tokens.js';
import { isStrongPassword, passwordRule } from '../../platform/password-policy.js';
import { SecurityAction, type SecurityEvents } from './security-events.js';
import type { ClientMeta, IssuedSession, SessionService } from './sessions.service.js';

export const REGISTER_LINK_TTL_HOURS = 24;
export const RESET_LINK_TTL_HOURS = 1;
export const MAX_CODE_FAILURES = 5;

export type LoginResult = { kind: 'session'; session: IssuedSession } | { kind: '2fa'; challengeToken: string };

export interface AuthLinks {
  /** Base URL the links in mails point to (FRONTEND_URL, else PUBLIC_URL). */
  base: string;
  encryptionKey: Buffer;
}

export function assertStrongPassword(password: string, field: string): void {
  if (!isStrongPassword(password)) throw new ValidationError('Validation failed', [{ field, message: `must be ${passwordRule.description}` }]);
}

const invalidCredentials = () => new AppError(401, 'INVALID_CREDENTIALS', 'E-mail or password is wrong');
const invalidCode = () => new BadRequestError('INVALID_CODE', 'The code is wrong, expired or already used');
const challengeGone = () => new UnauthenticatedError('The two-factor login has expired, please log in again');

export interface AuthDeps {
  lock: AccountLock;
  events: SecurityEvents;
  queue: JobQueue;
  access: AccountAccess;
  /** the rewards module: a customer may register with another's referral code */
  referrals: ReferralClaims;
}

/** Registration, login (with its second factor) and passwords. */
/** The rewards module: records who referred a new customer (in the caller's transaction). */
export interface ReferralClaims {
  claimReferral(customerId: number, code: string): Promise<void>;
}

export class AuthService {
  /**
   * The mails of `password/forgot` and `register/resend`. The request only enqueues this job, the
   * same work whether the address has an account or not, so neither the answer nor its timing
   * tells who has an account; the job looks the address up and sends the link (or nothing).
   */
  readonly accountMailJob = defineJob<{ kind: 'password_reset' | 'register_verify'; email: string }>({
    name: 'auth.account-mail',
    queue: 'mail',
    description: 'Mails a password reset or a new verification link to an address, if it has a matching account',
    record: 'failures',
    handler: (p) => (p.kind === 'password_reset' ? this.sendResetLink(p.email) : this.sendVerificationLink(p.email)),
  });

  private readonly lock: AccountLock;
  private readonly referrals: ReferralClaims;
  private readonly events: SecurityEvents;
  private readonly queue: JobQueue;
  private readonly access: AccountAccess;

  constructor(
    private readonly db: Database,
    private readonly repo: AuthRepository,
    private readonly sessions: SessionService,
    private readonly tokens: CustomerTokens,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly links: AuthLinks,
    deps: AuthDeps,
  ) {
    this.lock = deps.lock;
    this.events = deps.events;
    this.queue = deps.queue;
    this.access = deps.access;
    this.referrals = deps.referrals;
  }

  async register(input: { email: string; password: string; first_name: string; last_name: string; account_type: 'P' | 'B'; referral_code?: string }): Promise<{ id: number }> {
    assertStrongPassword(input.password, 'password');
    const now = this.clock.now();
    const email = input.email.trim();
    if (await this.repo.emailTaken(this.db, email)) throw new ConflictError('This e-mail address is already registered', 'EMAIL_TAKEN');
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      const id = await this.repo.insertCustomer(tx, {
        email,
        passwordHash,
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        accountType: input.account_type,
        now,
      });
      if (id === undefined) throw new ConflictError('This e-mail address is already registered', 'EMAIL_TAKEN');
      if (input.referral_code !== undefined) {
        await this.referrals.claimReferral(id, input.referral_code);
      }
      await this.queueVerificationLink(tx, id, email, input.first_name.trim(), now);
      await this.events.record(tx, SecurityAction.registered, id, { email }, { anonymous: true });
      return { id };
    });
  }

  /** A new verification link for an account that is not verified yet; always succeeds from the outside (see accountMailJob). */
  async resendVerification(email: string): Promise<void> {
    await this.queue.send(this.accountMailJob, { kind: 'register_verify', email: email.trim() });
  }

  private async sendVerificationLink(email: string): Promise<void> {
    const customer = await this.repo.findByEmail(this.db, email.trim());
    if (!customer || customer.isRegistrationCompleted || !customer.isActive) return;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await this.repo.voidTokens(tx, customer.id, ['register_verify'], now);
      await this.queueVerificationLink(tx, customer.id, customer.email, customer.firstName, now);
    });
  }

  private async queueVerificationLink(tx: Executor, customerId: number, email: string, firstName: string, now: Date): Promise<void> {
    const token = randomToken();
    await this.repo.insertToken(tx, { customerId, purpose: 'register_verify', tokenHash: sha256Hex(token), expiresAt: hoursFrom(now, REGISTER_LINK_TTL_HOURS), now });
    const mail = linkMail({
      template: 'register-verify',
      subject: 'Confirm your e-mail address',
      intro: `Welcome, ${firstName}! Confirm your e-mail address to activate your account.`,
      url: `${this.links.base}/auth/verify-email?token=${encodeURIComponent(token)}`,
      validHours: REGISTER_LINK_TTL_HOURS,
    });
    await this.mailer.queueMail(email, mail, tx);
  }

  async verifyRegistration(token: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const row = await this.repo.findLiveToken(tx, 'register_verify', sha256Hex(token), now);
      if (!row || !(await this.repo.consumeToken(tx, row.id, now))) throw new BadRequestError('INVALID_TOKEN', 'The link is invalid, expired or already used');
      await this.repo.completeRegistration(tx, row.customerId, now);
      await this.events.record(tx, SecurityAction.emailVerified, row.customerId);
    });
  }

  async login(input: { email: string; password: string }, meta: ClientMeta): Promise<LoginResult> {
    const now = this.clock.now();
    const email = input.email.trim();
    const customer = await this.repo.findByEmail(this.db, email);
    // An address without an account is counted and locked like one with an account: same answers, same work.
    const attempt = await this.lock.reserve('customer', customer ? accountSubject(customer.id) : unknownEmailSubject(email));
    const ok = customer ? await verifyPassword(customer.passwordHash, input.password) : await verifyAgainstDummy(input.password);
    if (!customer || !ok) {
      await this.events.record(undefined, SecurityAction.loginFailed, customer?.id ?? null, { email, reason: customer ? 'wrong password' : 'unknown e-mail' }, { anonymous: true, ...meta });
      this.lock.wrong(attempt);
      throw invalidCredentials();
    }
    const outcome = await this.db.transaction(async (tx): Promise<LoginResult | AppError> => {
      if (customer.is2faActive && customer.isActive && customer.isRegistrationCompleted) {
        // The password alone opens nothing: the attempt stays counted until the second factor
        // succeeds, so someone who knows the password cannot log in again and again for fresh
        // rounds of code guesses (10 logins in 15 minutes lock the account).
        this.lock.wrong(attempt);
      } else {
        // Under the counter's row lock: a right password gets nothing while another attempt holds the lock.
        await this.lock.release(attempt, tx);
      }
      if (!customer.isActive) return new ForbiddenError('This account is disabled', 'ACCOUNT_DISABLED');
      if (!customer.isRegistrationCompleted) return new ForbiddenError('Confirm your e-mail address first: we sent you a link', 'EMAIL_NOT_VERIFIED');
      if (customer.is2faActive) {
        const challengeId = await this.repo.insertChallenge(tx, customer.id, new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000), now);
        await this.events.record(tx, SecurityAction.loginChallenged, customer.id, { email }, { anonymous: true, ...meta });
        return { kind: '2fa', challengeToken: this.tokens.challenge(customer.id, challengeId) };
      }
      const session = await this.sessions.open(tx, customer.id, meta);
      await this.events.record(tx, SecurityAction.login, customer.id, { session_id: session.sessionId, second_factor: null }, meta);
      return { kind: 'session', session };
    });
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  /** The second factor by TOTP: needs the challenge cookie and the e-mail it was issued for. */
  verifyCode(challengeToken: string | undefined, input: { email: string; code: string }, meta: ClientMeta): Promise<IssuedSession> {
    return this.secondFactor(challengeToken, input.email, meta, 'totp', async (customer, fail) => {
      const step = customer.totpSecretEnc ? matchTotp(decryptSecret(this.links.encryptionKey, customer.totpSecretEnc), input.code.trim(), this.clock.now()) : null;
      if (step === null) return fail();
      return async (tx) => {
        if (!(await this.repo.consumeTotpStep(tx, customer.id, step))) throw invalidCode();
      };
    });
  }

  /** The second factor by a recovery code, which is used up. */
  verifyRecovery(challengeToken: string | undefined, input: { email: string; code: string }, meta: ClientMeta): Promise<IssuedSession> {
    return this.secondFactor(challengeToken, input.email, meta, 'recovery_code', async (customer, fail) => {
      const code = input.code.trim().toLowerCase();
      if (!RECOVERY_CODE_PATTERN.test(code)) return fail();
      const codes = await this.repo.listRecoveryCodes(this.db, customer.id);
      const match = findRecoveryCode(code, codes);
      if (!match) return fail();
      const now = this.clock.now();
      return async (tx) => {
        if (!(await this.repo.useRecoveryCode(tx, match.id, now))) throw invalidCode();
      };
    });
  }

  private async secondFactor(
    challengeToken: string | undefined,
    email: string,
    meta: ClientMeta,
    method: 'totp' | 'recovery_code',
    check: (customer: Credentials, fail: () => never) => Promise<(tx: Executor) => Promise<void>>,
  ): Promise<IssuedSession> {
    const now = this.clock.now();
    const claims = this.tokens.verifyChallenge(challengeToken);
    if (!claims) throw challengeGone();
    const challenge = await this.repo.findChallenge(this.db, claims.challengeId);
    if (!challenge || challenge.customerId !== claims.customerId || challenge.consumedAt || challenge.expiresAt <= now || challenge.failedAttempts >= MAX_CODE_FAILURES) {
      throw challengeGone();
    }
    const customer = await this.repo.findById(this.db, challenge.customerId);
    if (!customer || !customer.isActive || !customer.is2faActive) throw challengeGone();
    const failed = async () => {
      await this.repo.failChallenge(this.db, challenge.id);
      await this.events.record(undefined, SecurityAction.loginFailed, customer.id, { email: customer.email, reason: `wrong ${method}` }, { anonymous: true, ...meta });
      return invalidCode();
    };
    if (customer.email.toLowerCase() !== email.trim().toLowerCase()) throw await failed();
    let consume: (tx: Executor) => Promise<void>;
    try {
      consume = await check(customer, () => {
        throw invalidCode();
      });
    } catch (err) {
      if (err instanceof BadRequestError) throw await failed();
      throw err;
    }
    try {
      return await this.db.transaction(async (tx) => {
        await consume(tx);
        if (!(await this.repo.consumeChallenge(tx, challenge.id, now))) throw challengeGone();
        // The login is complete: its password attempt is released (429 while the account is locked).
        await this.lock.release({ scope: 'customer', subject: accountSubject(customer.id), locks: false, lockedUntil: null }, tx);
        const session = await this.sessions.open(tx, customer.id, meta);
        await this.events.record(tx, SecurityAction.login, customer.id, { session_id: session.sessionId, second_factor: method }, meta);
        return session;
      });
    } catch (err) {
      if (err instanceof BadRequestError) throw await failed();
      throw err;
    }
  }

  async changePassword(customerId: number, sessionId: string, input: { current_password: string; new_password: string }): Promise<void> {
    assertStrongPassword(input.new_password, 'new_password');
    const customer = await this.repo.findById(this.db, customerId);
    if (!customer || !(await this.lock.check('customer', accountSubject(customer.id), () => verifyPassword(customer.passwordHash, input.current_password)))) {
      throw new BadRequestError('INVALID_PASSWORD', 'The current password is wrong', [{ field: 'current_password', message: 'is wrong' }]);
    }
    const passwordHash = await hashPassword(input.new_password);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await this.repo.updatePassword(tx, customerId, passwordHash, now);
      const revoked = await this.sessions.revokeOthers(tx, customerId, sessionId, 'password_changed');
      await this.events.record(tx, SecurityAction.passwordChanged, customerId, { other_sessions_revoked: revoked });
      // Outstanding reset links and half-done 2FA logins (password already checked) end with the old password.
      await this.repo.voidTokens(tx, customerId, ['password_reset'], now);
      await this.repo.voidChallenges(tx, customerId, now);
      // The owner proved the current password: their tokens keep working, and the notice lists them.
      await this.mailer.queueMail(customer.email, passwordChangedMail(await this.access.liveTokensNotice(tx, customerId)), tx);
    });
  }

  /** Always succeeds from the outside, so nobody learns which addresses have accounts (see accountMailJob). */
  async forgotPassword(email: string): Promise<void> {
    await this.queue.send(this.accountMailJob, { kind: 'password_reset', email: email.trim() });
  }

  private async sendResetLink(email: string): Promise<void> {
    const customer = await this.repo.findByEmail(this.db, email.trim());
    if (!customer || !customer.isActive) return;
    const now = this.clock.now();
    const token = randomToken();
    await this.db.transaction(async (tx) => {
      await this.repo.voidTokens(tx, customer.id, ['password_reset'], now);
      await this.repo.insertToken(tx, { customerId: customer.id, purpose: 'password_reset', tokenHash: sha256Hex(token), expiresAt: hoursFrom(now, RESET_LINK_TTL_HOURS), now });
      const mail = linkMail({
        template: 'password-reset',
        subject: 'Reset your password',
        intro: 'Someone asked to reset the password of your account. If it was you, open the link below and choose a new password.',
        url: `${this.links.base}/auth/reset-password?token=${encodeURIComponent(token)}`,
        validHours: RESET_LINK_TTL_HOURS,
      });
      await this.mailer.queueMail(customer.email, mail, tx);
    });
  }

  async resetPassword(input: { token: string; new_password: string }): Promise<void> {
    assertStrongPassword(input.new_password, 'new_password');
    const now = this.clock.now();
    const passwordHash = await hashPassword(input.new_password);
    await this.db.transaction(async (tx) => {
      const row = await this.repo.findLiveToken(tx, 'password_reset', sha256Hex(input.token), now);
      if (!row || !(await this.repo.consumeToken(tx, row.id, now))) throw new BadRequestError('INVALID_TOKEN', 'The link is invalid, expired or already used');
      await this.repo.updatePassword(tx, row.customerId, passwordHash, now);
      // A reset takes the account back: whoever had it loses every session and API token.
      const ended = await this.access.endAll(tx, row.customerId, 'password_reset', 'customer');
      // Control of the mailbox lifts a lock set by someone guessing the old password.
      await this.lock.clear('customer', accountSubject(row.customerId), tx);
      await this.events.record(tx, SecurityAction.passwordReset, row.customerId, { sessions_revoked: ended.sessions, api_tokens_revoked: ended.api_tokens });
      // Following a reset link proves control of the mailbox, so an unverified account is verified too.
      await this.repo.completeRegistration(tx, row.customerId, now);
      const customer = await this.repo.findById(tx, row.customerId);
      if (customer) await this.mailer.queueMail(customer.email, passwordResetMail(ended.api_tokens), tx);
    });
  }
}

function hoursFrom(now: Date, hours: number): Date {
  return new Date(now.getTime() + hours * 3600_000);
}

function passwordChangedMail(tokenLines: string[]) {
  return noticeMail({
    template: 'password-changed',
    subject: 'Your password was changed',
    lines: ['The password of your account was just changed and your other devices were logged out.', ...tokenLines, 'If this was not you, reset your password at once and contact support.'],
  });
}

function passwordResetMail(apiTokensRevoked: number) {
  return noticeMail({
    template: 'password-reset-done',
    subject: 'Your password was reset',
    lines: [
      'The password of your account was reset with the link we mailed. Every device was logged out.',
      apiTokensRevoked === 0
        ? 'No API token was active.'
        : `${apiTokensRevoked === 1 ? 'Your API token was' : `All ${apiTokensRevoked} of your API tokens were`} revoked: create new ones for your scripts in the console (Profile and security, API tokens).`,
      'If this was not you, reset your password again at once and contact support.',
    ],
  });
}

import type { Clock } from '../../platform/clock.js';
import {
  decryptSecret,
  encryptSecret,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  totpUrl,
  verifyPassword,
} from '../../platform/crypto/index.js';
import { accountSubject, type AccountLock } from '../../platform/account-lock/account-lock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import type { AuthRepository } from './auth.repository.js';
import type { CustomerTokens } from './auth.tokens.js';
import { SecurityAction, type SecurityEvents } from './security-events.js';

/** A recovery code as its owner may see it again: its hint, and when it was used. */
export interface RecoveryCodeHint {
  hint: string;
  usedAt: Date | null;
}

export const RECOVERY_CODE_COUNT = 10;

const invalidCode = () => new BadRequestError('INVALID_CODE', 'The code is wrong, expired or already used');

/** Sudo mode, TOTP enrolment and recovery codes. */
export class TwoFactorService {
  constructor(
    private readonly db: Database,
    private readonly repo: AuthRepository,
    private readonly tokens: CustomerTokens,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly opts: { encryptionKey: Buffer; issuer: string },
    private readonly lock: AccountLock,
    private readonly events: SecurityEvents,
  ) {}

  /**
   * Re-authentication: the password (and a TOTP code when 2FA is on) buys a 5-minute sudo token
   * bound to the session. A wrong password and a wrong code each count towards the account lock.
   */
  async sudo(customerId: number, sessionId: string, input: { password: string; code?: string }): Promise<{ token: string; expiresAt: Date }> {
    const customer = await this.loadCustomer(this.db, customerId);
    // One attempt for the request: released only when the password and (with 2FA on) the code are right.
    const attempt = await this.lock.reserve('customer', accountSubject(customerId));
    if (!(await verifyPassword(customer.passwordHash, input.password))) {
      await this.events.record(undefined, SecurityAction.reauthFailed, customerId, { reason: 'wrong password (sudo)' });
      this.lock.wrong(attempt);
      throw new BadRequestError('INVALID_PASSWORD', 'The password is wrong', [{ field: 'password', message: 'is wrong' }]);
    }
    if (customer.is2faActive) {
      if (!input.code) {
        await this.lock.release(attempt);
        throw new BadRequestError('INVALID_CODE', 'A 2FA code is required', [{ field: 'code', message: 'is required while 2FA is on' }]);
      }
      if (!(await this.spendTotp(customerId, customer.totpSecretEnc, input.code))) {
        await this.events.record(undefined, SecurityAction.reauthFailed, customerId, { reason: 'wrong 2fa code (sudo)' });
        this.lock.wrong(attempt);
        throw invalidCode();
      }
    }
    await this.lock.release(attempt);
    const sudo = this.tokens.sudo(customerId, sessionId);
    await this.events.record(undefined, SecurityAction.sudoGranted, customerId, { session_id: sessionId, expires_at: sudo.expiresAt.toISOString() });
    return { token: sudo.token, expiresAt: sudo.expiresAt };
  }

  /** 403 SUDO_REQUIRED unless the X-Access-Token was issued to this session and is still valid. */
  requireSudo(customerId: number, sessionId: string, token: string | undefined): void {
    if (!this.tokens.verifySudo(token, customerId, sessionId)) {
      throw new ForbiddenError('This needs a fresh sudo token in X-Access-Token (POST /api/auth/profile/sudo)', 'SUDO_REQUIRED');
    }
  }

  async generate(customerId: number): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
    const customer = await this.loadCustomer(this.db, customerId);
    if (customer.is2faActive) throw new ConflictError('Two-factor authentication is already on; disable it first');
    const secret = newTotpSecret();
    await this.repo.setPendingSecret(this.db, customerId, encryptSecret(this.opts.encryptionKey, secret), this.clock.now());
    const url = totpUrl(secret, customer.email, this.opts.issuer);
    return { secret, otpauthUrl: url, qrCode: await (await import('qrcode')).default.toDataURL(url) };
  }

  /** Turns 2FA on; the new recovery codes, shown once. */
  async enable(customerId: number, code: string): Promise<string[]> {
    const now = this.clock.now();
    const customer = await this.loadCustomer(this.db, customerId);
    if (customer.is2faActive) throw new ConflictError('Two-factor authentication is already on');
    const pending = customer.totpPendingSecretEnc;
    if (!pending) throw new BadRequestError('INVALID_CODE', 'Generate a secret first (POST /api/auth/profile/2fa/generate-code)');
    const step = matchTotp(decryptSecret(this.opts.encryptionKey, pending), code.trim(), now);
    if (step === null) throw invalidCode();
    return this.db.transaction(async (tx) => {
      if (!(await this.repo.consumeTotpStep(tx, customerId, step))) throw invalidCode();
      if (!(await this.repo.activate2fa(tx, customerId, pending, now))) throw new ConflictError('Two-factor authentication changed meanwhile, try again');
      const codes = await this.replaceCodes(tx, customerId);
      await this.events.record(tx, SecurityAction.twoFactorEnabled, customerId);
      await this.mailer.queueMail(customer.email, securityNotice('Two-factor authentication is on', 'Two-factor authentication was turned on for your account.'), tx);
      return codes;
    });
  }

  async disable(customerId: number, code: string): Promise<void> {
    const customer = await this.loadCustomer(this.db, customerId);
    if (!customer.is2faActive) throw new ConflictError('Two-factor authentication is not on');
    await this.useTotp(customerId, customer.totpSecretEnc, code, '2fa disable');
    await this.db.transaction(async (tx) => {
      await this.repo.deactivate2fa(tx, customerId, this.clock.now());
      await this.repo.voidChallenges(tx, customerId, this.clock.now());
      await this.events.record(tx, SecurityAction.twoFactorDisabled, customerId);
      await this.mailer.queueMail(customer.email, securityNotice('Two-factor authentication is off', 'Two-factor authentication was turned off for your account.'), tx);
    });
  }

  async recoveryList(customerId: number): Promise<RecoveryCodeHint[]> {
    await this.loadCustomer(this.db, customerId);
    return (await this.repo.listRecoveryCodes(this.db, customerId)).map(({ hint, usedAt }) => ({ hint, usedAt }));
  }

  /** New recovery codes (the old ones stop working), shown once. */
  async regenerate(customerId: number): Promise<string[]> {
    const customer = await this.loadCustomer(this.db, customerId);
    if (!customer.is2faActive) throw new ConflictError('Two-factor authentication is not on');
    return this.db.transaction(async (tx) => {
      const codes = await this.replaceCodes(tx, customerId);
      await this.events.record(tx, SecurityAction.recoveryCodesRegenerated, customerId);
      return codes;
    });
  }

  /** Staff: switches 2FA off without a code. Returns whether it was on; the caller audits it with the reason. */
  async forceDisable(customerId: number, tx?: Executor): Promise<{ wasActive: boolean }> {
    const run = async (tx: Executor) => {
      const was = await this.repo.deactivate2fa(tx, customerId, this.clock.now());
      if (was === undefined) throw new NotFoundError('Customer');
      await this.repo.voidChallenges(tx, customerId, this.clock.now());
      return { wasActive: was };
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  private async loadCustomer(ex: Executor, customerId: number) {
    const customer = await this.repo.findById(ex, customerId);
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /**
   * Checks a TOTP code and spends its time step (a second use of the code is refused). The attempt
   * counts towards the account lock like a password: a wrong code stays counted, a right one
   * releases it, and 429 while the account is locked.
   */
  private async useTotp(customerId: number, secretEnc: string | null, code: string, where: string): Promise<void> {
    const ok = await this.lock.check('customer', accountSubject(customerId), () => this.spendTotp(customerId, secretEnc, code));
    if (!ok) {
      await this.events.record(undefined, SecurityAction.reauthFailed, customerId, { reason: `wrong 2fa code (${where})` });
      throw invalidCode();
    }
  }

  /** True when the code is right for the step it belongs to and that step was not used yet (then it is used). */
  private async spendTotp(customerId: number, secretEnc: string | null, code: string): Promise<boolean> {
    const step = secretEnc ? matchTotp(decryptSecret(this.opts.encryptionKey, secretEnc), code.trim(), this.clock.now()) : null;
    return step !== null && (await this.repo.consumeTotpStep(this.db, customerId, step));
  }

  private async replaceCodes(tx: Executor, customerId: number): Promise<string[]> {
    const { codes, rows } = newRecoveryCodes(RECOVERY_CODE_COUNT);
    await this.repo.replaceRecoveryCodes(tx, customerId, rows, this.clock.now());
    return codes;
  }
}

function securityNotice(subject: string, line: string) {
  return noticeMail({ template: '2fa-changed', subject, lines: [line, 'If this was not you, change your password at once and contact support.'] });
}

import { accountSubject, type AccountLock } from '../../platform/account-lock/account-lock.js';
import type { Clock } from '../../platform/clock.js';
import {
  decryptSecret,
  encryptSecret,
  findRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  RECOVERY_CODE_PATTERN,
  totpUrl,
  verifyPassword,
} from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, UnauthenticatedError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { AdminSessionsRepository } from './admin-sessions.repository.js';
import type { AdminsRepository, AdminWithRole } from './admins.repository.js';
import { assertSuperAdmin } from './super-admin.js';

export const STAFF_RECOVERY_CODE_COUNT = 10;

const invalidCode = () => new BadRequestError('INVALID_CODE', 'The code is wrong, expired or already used');
const wrongPassword = () => new BadRequestError('INVALID_PASSWORD', 'The password is wrong', [{ field: 'password', message: 'is wrong' }]);

export type SecondFactor = { code?: string | undefined; recovery_code?: string | undefined };

/**
 * TOTP two-factor authentication for staff, on the customers' primitives (src/platform/crypto:
 * SHA-1 6-digit 30 s codes, ±1 step, each step once; salted-hash single-use recovery codes) and
 * the shared account lock: every password and code checked here counts like a login attempt.
 */
export class StaffTwoFactorService {
  constructor(
    private readonly db: Database,
    private readonly admins: AdminsRepository,
    private readonly sessions: AdminSessionsRepository,
    private readonly audit: AuditService,
    private readonly lock: AccountLock,
    private readonly clock: Clock,
    private readonly opts: { encryptionKey: Buffer; issuer: string },
  ) {}

  /** Enrolment step 1 (password again): a pending secret to scan. */
  async generate(adminId: number, password: string): Promise<{ secret: string; otpauth_url: string; qr_code: string }> {
    const admin = await this.load(adminId);
    if (admin.totpSecretEnc) throw new ConflictError('Two-factor authentication is already on; disable it first');
    if (!(await this.lock.check('admin', accountSubject(adminId), () => verifyPassword(admin.passwordHash, password)))) throw wrongPassword();
    const secret = newTotpSecret();
    await this.admins.update(this.db, adminId, { totpPendingSecretEnc: encryptSecret(this.opts.encryptionKey, secret), updatedAt: this.clock.now() });
    const url = totpUrl(secret, admin.email, this.opts.issuer);
    return { secret, otpauth_url: url, qr_code: await (await import('qrcode')).default.toDataURL(url) };
  }

  /** Enrolment step 2: a code of the pending secret turns 2FA on; the recovery codes are shown once. */
  async enable(adminId: number, code: string, from: Actor): Promise<{ recovery_codes: string[] }> {
    const now = this.clock.now();
    const admin = await this.load(adminId);
    if (admin.totpSecretEnc) throw new ConflictError('Two-factor authentication is already on');
    const pending = admin.totpPendingSecretEnc;
    if (!pending) throw new BadRequestError('INVALID_CODE', 'Generate a secret first (POST /api/backoffice/auth/2fa/generate)');
    const step = matchTotp(decryptSecret(this.opts.encryptionKey, pending), code.trim(), now);
    if (step === null) throw invalidCode();
    return this.db.transaction(async (tx) => {
      if (!(await this.admins.consumeTotpStep(tx, adminId, step))) throw invalidCode();
      if (!(await this.admins.activate2fa(tx, adminId, pending, now))) throw new ConflictError('Two-factor authentication changed meanwhile, try again');
      const codes = await this.replaceCodes(tx, adminId);
      await this.audit.record(tx, { actor: from, action: 'admin.2fa_enabled', targetType: 'admin', targetId: adminId });
      return { recovery_codes: codes };
    });
  }

  /** Off again: the password and a current code (both counted). */
  async disable(adminId: number, input: { password: string; code: string }, from: Actor): Promise<void> {
    const admin = await this.load(adminId);
    if (!admin.totpSecretEnc) throw new ConflictError('Two-factor authentication is not on');
    await this.reauthenticate(admin, input);
    await this.db.transaction(async (tx) => {
      await this.admins.deactivate2fa(tx, adminId, this.clock.now());
      await this.audit.record(tx, { actor: from, action: 'admin.2fa_disabled', targetType: 'admin', targetId: adminId });
    });
  }

  /** A new set of recovery codes (password and a current code); the old set stops working. */
  async regenerate(adminId: number, input: { password: string; code: string }, from: Actor): Promise<{ recovery_codes: string[] }> {
    const admin = await this.load(adminId);
    if (!admin.totpSecretEnc) throw new ConflictError('Two-factor authentication is not on');
    await this.reauthenticate(admin, input);
    return this.db.transaction(async (tx) => {
      const codes = await this.replaceCodes(tx, adminId);
      await this.audit.record(tx, { actor: from, action: 'admin.recovery_codes_regenerated', targetType: 'admin', targetId: adminId });
      return { recovery_codes: codes };
    });
  }

  /**
   * Super Admin: switches another admin's 2FA off (a lost phone), with the reason in the audit
   * log; the admin's sessions end, so the next login enrols again where the setting requires it.
   */
  async reset(actor: Actor, adminId: number, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await assertSuperAdmin(tx, this.admins, actor, "Only Super Admin may reset other admins' two-factor authentication");
      const target = await this.admins.findById(tx, adminId, { forUpdate: true });
      if (!target) throw new NotFoundError('Admin');
      if (!target.totpSecretEnc) throw new ConflictError('Two-factor authentication is not on for this admin', 'TWO_FACTOR_OFF');
      const now = this.clock.now();
      await this.admins.deactivate2fa(tx, adminId, now);
      const revoked = await this.sessions.revokeAllOf(tx, adminId, now, '2fa reset');
      await this.audit.record(tx, { actor, action: 'admin.2fa_reset', targetType: 'admin', targetId: adminId, before: { two_factor: true }, after: { two_factor: false, reason, sessions_revoked: revoked } });
    });
  }

  /**
   * The second login step's check, by TOTP code or recovery code (used up). Returns which one
   * matched, or null; the caller counts it on the account lock.
   */
  async matches(admin: AdminWithRole, input: SecondFactor): Promise<'totp' | 'recovery_code' | null> {
    if (!admin.totpSecretEnc) return null;
    if (input.code !== undefined) return (await this.spendTotp(admin.id, admin.totpSecretEnc, input.code)) ? 'totp' : null;
    const code = (input.recovery_code ?? '').trim().toLowerCase();
    if (!RECOVERY_CODE_PATTERN.test(code)) return null;
    const codes = await this.admins.listRecoveryCodes(this.db, admin.id);
    const match = findRecoveryCode(code, codes);
    return match && (await this.admins.useRecoveryCode(this.db, match.id, this.clock.now())) ? 'recovery_code' : null;
  }

  /** One counted attempt: released only when the password and the code are both right. */
  private async reauthenticate(admin: AdminWithRole, input: { password: string; code: string }): Promise<void> {
    const attempt = await this.lock.reserve('admin', accountSubject(admin.id));
    if (!(await verifyPassword(admin.passwordHash, input.password))) {
      this.lock.wrong(attempt);
      throw wrongPassword();
    }
    if (!(await this.spendTotp(admin.id, admin.totpSecretEnc, input.code))) {
      this.lock.wrong(attempt);
      throw invalidCode();
    }
    await this.lock.release(attempt);
  }

  private async spendTotp(adminId: number, secretEnc: string | null, code: string): Promise<boolean> {
    const step = secretEnc ? matchTotp(decryptSecret(this.opts.encryptionKey, secretEnc), code.trim(), this.clock.now()) : null;
    return step !== null && (await this.admins.consumeTotpStep(this.db, adminId, step));
  }

  private async replaceCodes(tx: Executor, adminId: number): Promise<string[]> {
    const { codes, rows } = newRecoveryCodes(STAFF_RECOVERY_CODE_COUNT);
    await this.admins.replaceRecoveryCodes(tx, adminId, rows, this.clock.now());
    return codes;
  }

  private async load(adminId: number): Promise<AdminWithRole> {
    const admin = await this.admins.findById(this.db, adminId);
    if (!admin || admin.deletedAt) throw new UnauthenticatedError();
    return admin;
  }
}

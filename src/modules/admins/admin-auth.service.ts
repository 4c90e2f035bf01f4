import { randomUUID } from 'node:crypto';
import { accountSubject, unknownEmailSubject, type AccountLock } from '../../platform/account-lock/account-lock.js';
import type { Clock } from '../../platform/clock.js';
import type { RefreshTokens } from '../../platform/refresh-tokens/refresh-tokens.js';
import { hashPassword, sha256Hex, verifyAgainstDummy, verifyPassword } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { DAY_MS, ENDED_SESSION_RETENTION_DAYS, SPENT_TOKEN_RETENTION_DAYS } from '../../platform/housekeeping.js';
import { defineJob } from '../../platform/queue/queue.js';
import { AppError, BadRequestError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { AdminPrincipal } from '../../platform/http/auth.js';
import type { Actor, AuditService } from '../audit/index.js';
import { isStrongPassword, passwordRule } from '../../platform/password-policy.js';
import type { AdminPasswordLinksRepository } from './admin-password-links.repository.js';
import type { AdminTokens } from './admin-tokens.js';
import type { AdminSessionsRepository } from './admin-sessions.repository.js';
import type { AdminsRepository, AdminWithRole } from './admins.repository.js';
import { MONEY_PERMISSIONS, type Permission } from './permissions.js';
import type { RolesService } from './roles.service.js';
import type { SecondFactor, StaffTwoFactorService } from './staff-two-factor.service.js';

/**
 * A backoffice session ends 12 hours after its login, however it is used: refreshes never extend
 * it, so role and permission changes, which each refresh re-reads, are complete by then.
 */
export const SESSION_TTL_MS = 12 * 3600_000;
const REALM = 'admin';
/** last_access_at is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
  /** What is left of the session's life, for the refresh cookie's Max-Age. */
  refreshMaxAgeSeconds: number;
}

export interface SessionResult extends IssuedTokens {
  kind: 'session';
  admin: AdminWithRole;
  permissions: string[];
  /** the role moves money and the setting requires 2FA, which is not on yet: only enrolment works */
  twoFactorSetupRequired: boolean;
  /** the account had never logged in before this session */
  firstLogin: boolean;
}

/** The password was right and 2FA is on: the bo_mfa_challenge cookie leads to POST /auth/2fa/verify. */
export interface ChallengeResult {
  kind: '2fa';
  challengeToken: string;
}

export type LoginResult = SessionResult | ChallengeResult;

/** Who must use two-factor authentication (the settings module stores it). */
export type StaffTwoFactorScope = 'nobody' | 'money_roles' | 'all_staff';

export interface AdminAuthDeps {
  lock: AccountLock;
  refreshTokens: RefreshTokens;
  twoFactor: StaffTwoFactorService;
  /** the staff-2fa setting (GET/PUT /api/backoffice/setting/staff-2fa): who must use 2FA */
  staffTwoFactorScope: () => Promise<StaffTwoFactorScope>;
  /** the mailed set-password links (AdminsService issues them) */
  passwordLinks: AdminPasswordLinksRepository;
}

export class PasswordChangeRequiredError extends AppError {
  constructor() {
    super(403, 'PASSWORD_CHANGE_REQUIRED', 'Change your password first (POST /api/backoffice/auth/change-password)');
  }
}

export class TwoFactorSetupRequiredError extends AppError {
  constructor() {
    super(403, 'TWO_FACTOR_SETUP_REQUIRED', 'Two-factor authentication is required for your account: turn it on first (POST /api/backoffice/auth/2fa/generate, then /enable)');
  }
}

const invalidCode = () => new BadRequestError('INVALID_CODE', 'The code is wrong, expired or already used');

/** Backoffice login, token refresh, logout, password change, and the per-request session check. */
export class AdminAuthService {
  readonly pruneJob = defineJob<object>({
    name: 'admins.prune-sessions',
    schedule: '45 3 * * *',
    description: `Deletes staff sessions ended more than ${ENDED_SESSION_RETENTION_DAYS} days ago and set-password links spent more than ${SPENT_TOKEN_RETENTION_DAYS} day ago`,
    handler: async (_p, ctx) => ctx.log.info(await this.prune(), 'staff sessions pruned'),
  });

  constructor(
    private readonly db: Database,
    private readonly admins: AdminsRepository,
    private readonly sessions: AdminSessionsRepository,
    private readonly roles: RolesService,
    private readonly audit: AuditService,
    private readonly tokens: AdminTokens,
    private readonly clock: Clock,
    deps: AdminAuthDeps,
  ) {
    this.lock = deps.lock;
    this.refreshTokens = deps.refreshTokens;
    this.twoFactor = deps.twoFactor;
    this.staffTwoFactorScope = deps.staffTwoFactorScope;
    this.passwordLinks = deps.passwordLinks;
  }

  private readonly passwordLinks: AdminPasswordLinksRepository;

  private readonly lock: AccountLock;
  private readonly refreshTokens: RefreshTokens;
  private readonly twoFactor: StaffTwoFactorService;
  private readonly staffTwoFactorScope: () => Promise<StaffTwoFactorScope>;

  async login(input: { email: string; password: string }, from: Actor): Promise<LoginResult> {
    const now = this.clock.now();
    const email = input.email.trim();
    const admin = await this.admins.findByEmail(this.db, email);
    // Counted before the slow password check (parallel guesses cannot outrun the lock), and for an
    // address without an account too, so the answers do not tell which addresses are staff.
    const attempt = await this.lock.reserve('admin', admin ? accountSubject(admin.id) : unknownEmailSubject(email));
    const ok = admin ? await verifyPassword(admin.passwordHash, input.password) : await verifyAgainstDummy(input.password);
    if (!admin || !ok || admin.deletedAt) {
      await this.audit.record(this.db, {
        actor: { ...from, type: 'anonymous', id: null },
        action: 'admin.login_failed',
        targetType: 'admin',
        ...(admin ? { targetId: admin.id } : {}),
        after: { email: input.email, reason: !admin ? 'unknown e-mail' : admin.deletedAt && ok ? 'account deleted' : 'wrong password' },
      });
      this.lock.wrong(attempt);
      throw new AppError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    if (admin.totpSecretEnc) {
      // The password alone opens nothing: the attempt stays counted until the second factor succeeds.
      this.lock.wrong(attempt);
      await this.audit.record(this.db, { actor: { ...from, type: 'admin', id: admin.id }, action: 'admin.login_2fa_challenged', targetType: 'admin', targetId: admin.id });
      return { kind: '2fa', challengeToken: this.tokens.issueChallenge(admin.id, now) };
    }
    return this.db.transaction(async (tx) => {
      // Under the counter's row lock: the right password gets no session while another attempt holds the lock.
      await this.lock.release(attempt, tx);
      return this.openSession(tx, admin, from, null);
    });
  }

  /** The second login step: the challenge cookie and a TOTP or recovery code; counted on the account lock. */
  async verifySecondFactor(challengeToken: string | undefined, input: SecondFactor, from: Actor): Promise<SessionResult> {
    const now = this.clock.now();
    const adminId = this.tokens.verifyChallenge(challengeToken, now);
    if (adminId === undefined) throw new UnauthenticatedError('The two-factor login has expired, please log in again');
    const admin = await this.admins.findById(this.db, adminId);
    if (!admin || admin.deletedAt || !admin.totpSecretEnc) throw new UnauthenticatedError('The two-factor login has expired, please log in again');
    const attempt = await this.lock.reserve('admin', accountSubject(admin.id));
    const method = await this.twoFactor.matches(admin, input);
    if (!method) {
      await this.audit.record(this.db, {
        actor: { ...from, type: 'anonymous', id: null },
        action: 'admin.login_failed',
        targetType: 'admin',
        targetId: admin.id,
        after: { email: admin.email, reason: input.code !== undefined ? 'wrong 2fa code' : 'wrong recovery code' },
      });
      this.lock.wrong(attempt);
      throw invalidCode();
    }
    return this.db.transaction(async (tx) => {
      await this.lock.release(attempt, tx);
      return this.openSession(tx, admin, from, method);
    });
  }

  private async openSession(tx: Executor, admin: AdminWithRole, from: Actor, secondFactor: 'totp' | 'recovery_code' | null): Promise<SessionResult> {
    const now = this.clock.now();
    {
      const permissions = await this.roles.resolve(tx, admin.roleId, admin.roleName);
      const sessionId = randomUUID();
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      await this.sessions.insert(tx, {
        id: sessionId,
        adminId: admin.id,
        roleName: admin.roleName,
        permissions,
        ip: from.ip ?? null,
        userAgent: from.userAgent?.slice(0, 500) ?? null,
        createdAt: now,
        lastAccessAt: now,
        expiresAt,
      });
      const refreshToken = await this.refreshTokens.issue(tx, REALM, sessionId, expiresAt);
      await this.admins.update(tx, admin.id, { lastLoginAt: now });
      await this.audit.record(tx, {
        actor: { ...from, type: 'admin', id: admin.id },
        action: 'admin.login',
        targetType: 'admin_session',
        targetId: sessionId,
        after: { role: admin.roleName, must_change_password: admin.mustChangePassword, second_factor: secondFactor },
      });
      const accessToken = this.tokens.issueAccess({ adminId: admin.id, sessionId, role: admin.roleName, permissions, now });
      const twoFactorSetupRequired = !admin.totpSecretEnc && (await this.mustUseTwoFactor(permissions));
      return {
        kind: 'session',
        admin: { ...admin, lastLoginAt: now },
        permissions,
        accessToken,
        refreshToken,
        refreshExpiresAt: expiresAt,
        refreshMaxAgeSeconds: SESSION_TTL_MS / 1000,
        twoFactorSetupRequired,
        firstLogin: admin.lastLoginAt === null,
      };
    }
  }

  /** Whether the staff-2fa setting requires 2FA of someone holding these permissions. */
  private async mustUseTwoFactor(permissions: readonly string[]): Promise<boolean> {
    const scope = await this.staffTwoFactorScope();
    if (scope === 'all_staff') return true;
    return scope === 'money_roles' && permissions.some((p) => MONEY_PERMISSIONS.includes(p as Permission));
  }

  /**
   * Rotates the refresh token and re-reads the admin: a deleted admin's session ends, and the new
   * access token carries the admin's current role and permissions. The session's end stays 12 hours
   * after login. Presenting a token that was already used revokes the whole session (it was stolen
   * or replayed).
   */
  async refresh(refreshToken: string | undefined, from: Actor): Promise<IssuedTokens> {
    if (!refreshToken) throw new UnauthenticatedError();
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      const used = await this.refreshTokens.rotate(tx, REALM, refreshToken);
      if (used.kind === 'invalid') return { error: 'unknown' as const };
      const session = await this.sessions.findById(tx, used.sessionId);
      if (!session) return { error: 'unknown' as const };
      if (used.kind === 'reused') {
        await this.sessions.revoke(tx, session.id, now, 'refresh token reuse');
        await this.audit.record(tx, {
          actor: { ...from, type: 'admin', id: session.adminId },
          action: 'admin.refresh_token_reused',
          targetType: 'admin_session',
          targetId: session.id,
        });
        return { error: 'reused' as const };
      }
      const live = await this.sessions.findLive(tx, session.id, session.adminId, now);
      if (!live) return { error: 'dead' as const };
      const admin = await this.admins.findById(tx, session.adminId);
      if (!admin || admin.deletedAt) return { error: 'dead' as const };
      const permissions = await this.roles.resolve(tx, admin.roleId, admin.roleName);
      const expiresAt = session.expiresAt;
      const next = await this.refreshTokens.issue(tx, REALM, session.id, expiresAt);
      await this.sessions.refreshed(tx, session.id, now, admin.roleName, permissions);
      if (admin.roleName !== session.roleName || [...permissions].sort().join() !== [...session.permissions].sort().join()) {
        await this.audit.record(tx, {
          actor: { ...from, type: 'admin', id: admin.id },
          action: 'admin.session_authority_updated',
          targetType: 'admin_session',
          targetId: session.id,
          before: { role: session.roleName, permissions: session.permissions },
          after: { role: admin.roleName, permissions },
        });
      }
      const accessToken = this.tokens.issueAccess({ adminId: admin.id, sessionId: session.id, role: admin.roleName, permissions, now });
      return { tokens: { accessToken, refreshToken: next, refreshExpiresAt: expiresAt, refreshMaxAgeSeconds: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)) } };
    });
    if (!outcome.tokens) throw new UnauthenticatedError('The session has ended; log in again');
    return outcome.tokens;
  }

  /**
   * Ends the session named by a valid access token, else the one whose current refresh token this
   * is (the access token may have expired). Without either it does nothing: logout always succeeds.
   */
  async logout(cookies: { accessToken?: string | undefined; refreshToken?: string | undefined }, from: Actor): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const claims = cookies.accessToken ? this.tokens.verifyAccess(cookies.accessToken, now) : undefined;
      let session: { id: string; adminId: number } | undefined = claims ? { id: claims.sid, adminId: Number(claims.sub) } : undefined;
      if (!session) {
        const sessionId = await this.refreshTokens.sessionOf(tx, REALM, cookies.refreshToken);
        session = sessionId ? await this.sessions.findById(tx, sessionId) : undefined;
      }
      if (!session) return;
      const live = await this.sessions.findById(tx, session.id);
      if (!live || live.adminId !== session.adminId || live.revokedAt) return;
      await this.sessions.revoke(tx, live.id, now, 'logout');
      await this.audit.record(tx, { actor: { ...from, type: 'admin', id: live.adminId }, action: 'admin.logout', targetType: 'admin_session', targetId: live.id });
    });
  }

  /** Changes the password, clears must-change, and ends the admin's other sessions. */
  async changePassword(admin: AdminPrincipal, input: { current_password: string; new_password: string }, from: Actor): Promise<void> {
    const row = await this.admins.findById(this.db, admin.adminId);
    if (!row) throw new UnauthenticatedError();
    const now = this.clock.now();
    if (!(await this.lock.check('admin', accountSubject(row.id), () => verifyPassword(row.passwordHash, input.current_password)))) {
      throw new BadRequestError('INVALID_PASSWORD', 'The current password is wrong', [{ field: 'current_password', message: 'is wrong' }]);
    }
    if (!isStrongPassword(input.new_password)) {
      throw new ValidationError('Weak password', [{ field: 'new_password', message: passwordRule.description }]);
    }
    if (input.new_password === input.current_password) {
      throw new ValidationError('The new password must differ', [{ field: 'new_password', message: 'must differ from the current password' }]);
    }
    const passwordHash = await hashPassword(input.new_password);
    await this.db.transaction(async (tx) => {
      await this.admins.update(tx, admin.adminId, { passwordHash, mustChangePassword: false, passwordChangedAt: now });
      const revoked = await this.sessions.revokeAllOf(tx, admin.adminId, now, 'password changed', admin.sessionId);
      await this.audit.record(tx, {
        actor: from,
        action: 'admin.password_changed',
        targetType: 'admin',
        targetId: admin.adminId,
        after: { other_sessions_revoked: revoked },
      });
    });
  }

  /**
   * The mailed link's step: the staff member chooses the password. The link works once, until it
   * expires; the account's sessions end and a lock set by someone guessing is lifted (the mailbox
   * is proof enough). Afterwards the staff member logs in with the new password.
   */
  async setPasswordByLink(input: { token: string; new_password: string }, from: Actor): Promise<void> {
    if (!isStrongPassword(input.new_password)) {
      throw new ValidationError('Weak password', [{ field: 'new_password', message: passwordRule.description }]);
    }
    const now = this.clock.now();
    const passwordHash = await hashPassword(input.new_password);
    await this.db.transaction(async (tx) => {
      const adminId = await this.passwordLinks.consume(tx, sha256Hex(input.token), now);
      const admin = adminId === undefined ? undefined : await this.admins.findById(tx, adminId, { forUpdate: true });
      if (!admin || admin.deletedAt) throw new BadRequestError('INVALID_TOKEN', 'The link is invalid, expired or already used');
      await this.admins.update(tx, admin.id, { passwordHash, mustChangePassword: false, passwordChangedAt: now });
      const revoked = await this.sessions.revokeAllOf(tx, admin.id, now, 'password set by link');
      await this.lock.clear('admin', accountSubject(admin.id), tx);
      await this.audit.record(tx, {
        actor: { ...from, type: 'admin', id: admin.id },
        action: 'admin.password_set_by_link',
        targetType: 'admin',
        targetId: admin.id,
        after: { sessions_revoked: revoked },
      });
    });
  }

  /**
   * The per-request check: a valid bo_access token whose session is still alive. An admin who must
   * change the password gets 403 PASSWORD_CHANGE_REQUIRED except where `allowPendingPasswordChange`.
   */
  async authenticate(accessToken: string | undefined, opts: { allowPendingPasswordChange: boolean; allowPendingTwoFactor: boolean }): Promise<AdminPrincipal> {
    if (!accessToken) throw new UnauthenticatedError();
    const now = this.clock.now();
    const claims = this.tokens.verifyAccess(accessToken, now);
    if (!claims) throw new UnauthenticatedError('Invalid or expired token');
    const adminId = Number(claims.sub);
    if (!UUID.test(claims.sid)) throw new UnauthenticatedError('Invalid or expired token');
    const live = await this.sessions.findLive(this.db, claims.sid, adminId, now);
    if (!live) throw new UnauthenticatedError('The session has ended; log in again');
    // The password change comes first: while it is pending, 2FA enrolment (which asks for the password) waits.
    if (live.mustChangePassword) {
      if (!opts.allowPendingPasswordChange) throw new PasswordChangeRequiredError();
    } else if (!live.twoFactorOn && !opts.allowPendingTwoFactor && (await this.mustUseTwoFactor(claims.perms))) throw new TwoFactorSetupRequiredError();
    if (now.getTime() - live.lastAccessAt.getTime() > TOUCH_EVERY_MS) await this.sessions.touch(this.db, live.sessionId, now);
    return { kind: 'admin', adminId, sessionId: live.sessionId, role: claims.role, permissions: claims.perms };
  }

  /** Whether a session is still alive. */
  async isSessionLive(adminId: number, sessionId: string): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    return (await this.sessions.findLive(this.db, sessionId, adminId, this.clock.now())) !== undefined;
  }

  /**
   * Whether the session is alive and the admin's role holds `permission` now, read from the
   * database rather than the access token: long-lived connections (the ticket stream) re-check it,
   * so a demotion, a role that lost the permission, a deleted admin or an ended session stops them
   * without waiting for the token's refresh.
   */
  async stillHolds(adminId: number, sessionId: string, permission: Permission): Promise<boolean> {
    if (!(await this.isSessionLive(adminId, sessionId))) return false;
    const admin = await this.admins.findById(this.db, adminId);
    if (!admin || admin.deletedAt) return false;
    return (await this.roles.resolve(this.db, admin.roleId, admin.roleName)).includes(permission);
  }

  async prune(): Promise<{ sessions: number; passwordLinks: number }> {
    const now = this.clock.now().getTime();
    return {
      sessions: await this.sessions.pruneEnded(this.db, new Date(now - ENDED_SESSION_RETENTION_DAYS * DAY_MS)),
      passwordLinks: await this.passwordLinks.pruneSpent(this.db, new Date(now - SPENT_TOKEN_RETENTION_DAYS * DAY_MS)),
    };
  }
}

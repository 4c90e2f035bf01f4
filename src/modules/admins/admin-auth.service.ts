import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { DAY_MS, ENDED_SESSION_RETENTION_DAYS, SPENT_TOKEN_RETENTION_DAYS } from '../../platform/housekeeping.js';
import { defineJob } from '../../platform/queue/queue.js';
import { AppError, BadRequestError, RateLimitedError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { AdminPrincipal } from '../../platform/http/auth.js';
import type { Actor, AuditService } from '../audit/index.js';
import { isStrongPassword, passwordRule } from '../auth/index.js';
import { AdminTokens, hashRefreshToken, newRefreshToken } from './admin-tokens.js';
import type { AdminSessionsRepository } from './admin-sessions.repository.js';
import type { AdminsRepository, AdminWithRole } from './admins.repository.js';
import type { RolesService } from './roles.service.js';

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_LOCK_MS = 15 * 60_000;
/** A backoffice session lives 12 hours after its last refresh (sliding). */
export const SESSION_TTL_MS = 12 * 3600_000;
/** last_access_at is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

export interface LoginResult extends IssuedTokens {
  admin: AdminWithRole;
  permissions: string[];
}

export class PasswordChangeRequiredError extends AppError {
  constructor() {
    super(403, 'PASSWORD_CHANGE_REQUIRED', 'Change your password first (POST /api/backoffice/auth/change-password)');
  }
}

/** Backoffice login, token refresh, logout, password change, and the per-request session check. */
export class AdminAuthService {
  readonly pruneJob = defineJob<object>({
    name: 'admins.prune-sessions',
    schedule: '45 3 * * *',
    description: `Deletes staff sessions ended more than ${ENDED_SESSION_RETENTION_DAYS} days ago and expired refresh tokens`,
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
  ) {}

  async login(input: { email: string; password: string }, from: Actor): Promise<LoginResult> {
    const now = this.clock.now();
    const admin = await this.admins.findByEmail(this.db, input.email.trim());
    // The attempt is counted before the slow password check, so parallel guesses cannot outrun the lock.
    const attempt = admin ? await this.reserveAttempt(admin.id, now) : null;
    const ok = admin ? await verifyPassword(admin.passwordHash, input.password) : await verifyAgainstDummy(input.password);
    if (!admin || !ok || admin.deletedAt) {
      await this.audit.record(this.db, {
        actor: { ...from, type: 'anonymous', id: null },
        action: 'admin.login_failed',
        targetType: 'admin',
        ...(admin ? { targetId: admin.id } : {}),
        after: { email: input.email, reason: !admin ? 'unknown e-mail' : admin.deletedAt && ok ? 'account deleted' : 'wrong password' },
      });
      throw new AppError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    return this.db.transaction(async (tx) => {
      // Under the row lock: the right password gets no session while another attempt holds the lock.
      await this.releaseAttempt(tx, admin.id, attempt!, now);
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
      const refresh = newRefreshToken();
      await this.sessions.insertRefreshToken(tx, { tokenHash: refresh.hash, sessionId, expiresAt });
      await this.admins.update(tx, admin.id, { lastLoginAt: now });
      await this.audit.record(tx, {
        actor: { ...from, type: 'admin', id: admin.id },
        action: 'admin.login',
        targetType: 'admin_session',
        targetId: sessionId,
        after: { role: admin.roleName, must_change_password: admin.mustChangePassword },
      });
      const accessToken = this.tokens.issueAccess({ adminId: admin.id, sessionId, role: admin.roleName, permissions, now });
      return { admin: { ...admin, lastLoginAt: now }, permissions, accessToken, refreshToken: refresh.token, refreshExpiresAt: expiresAt };
    });
  }

  /** Counts a password attempt (login, change-password); 429 while the account is locked. */
  private async reserveAttempt(adminId: number, now: Date): Promise<{ locks: boolean }> {
    const attempt = await this.admins.reserveLoginAttempt(this.db, adminId, now, new Date(now.getTime() - LOGIN_WINDOW_MS), LOGIN_MAX_FAILURES, new Date(now.getTime() + LOGIN_LOCK_MS));
    if (!attempt) throw await this.locked(this.db, adminId, now);
    return attempt;
  }

  /** A right password undoes the count; 429 if another attempt locked the account meanwhile. */
  private async releaseAttempt(ex: Executor, adminId: number, attempt: { locks: boolean }, now: Date): Promise<void> {
    if (!(await this.admins.releaseLoginAttempt(ex, adminId, now, attempt.locks))) throw await this.locked(ex, adminId, now);
  }

  private async locked(ex: Executor, adminId: number, now: Date): Promise<RateLimitedError> {
    const until = (await this.admins.findById(ex, adminId))?.lockedUntil ?? now;
    return new RateLimitedError((until.getTime() - now.getTime()) / 1000, 'Too many failed logins; the account is locked for a while');
  }

  /**
   * Rotates the refresh token. The role and permissions stay those resolved at login. Presenting
   * a token that was already used revokes the whole session (it was stolen or replayed).
   */
  async refresh(refreshToken: string | undefined, from: Actor): Promise<IssuedTokens> {
    if (!refreshToken) throw new UnauthenticatedError();
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      const hash = hashRefreshToken(refreshToken);
      const stored = await this.sessions.findRefreshTokenForUpdate(tx, hash);
      if (!stored) return { error: 'unknown' as const };
      const session = await this.sessions.findById(tx, stored.sessionId);
      if (!session) return { error: 'unknown' as const };
      if (stored.usedAt) {
        await this.sessions.revoke(tx, session.id, now, 'refresh token reuse');
        await this.audit.record(tx, {
          actor: { ...from, type: 'admin', id: session.adminId },
          action: 'admin.refresh_token_reused',
          targetType: 'admin_session',
          targetId: session.id,
        });
        return { error: 'reused' as const };
      }
      if (stored.expiresAt <= now) return { error: 'expired' as const };
      const live = await this.sessions.findLive(tx, session.id, session.adminId, now);
      if (!live) return { error: 'dead' as const };
      await this.sessions.markRefreshTokenUsed(tx, hash, now);
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      const next = newRefreshToken();
      await this.sessions.insertRefreshToken(tx, { tokenHash: next.hash, sessionId: session.id, expiresAt });
      await this.sessions.extend(tx, session.id, now, expiresAt);
      const accessToken = this.tokens.issueAccess({
        adminId: session.adminId,
        sessionId: session.id,
        role: session.roleName,
        permissions: session.permissions,
        now,
      });
      return { tokens: { accessToken, refreshToken: next.token, refreshExpiresAt: expiresAt } };
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
      if (!session && cookies.refreshToken) session = await this.sessions.findSessionByCurrentRefreshToken(tx, hashRefreshToken(cookies.refreshToken));
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
    const attempt = await this.reserveAttempt(row.id, now);
    if (!(await verifyPassword(row.passwordHash, input.current_password))) {
      throw new BadRequestError('INVALID_PASSWORD', 'The current password is wrong', [{ field: 'current_password', message: 'is wrong' }]);
    }
    await this.releaseAttempt(this.db, row.id, attempt, now);
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
   * The per-request check: a valid bo_access token whose session is still alive. An admin who must
   * change the password gets 403 PASSWORD_CHANGE_REQUIRED except where `allowPendingPasswordChange`.
   */
  async authenticate(accessToken: string | undefined, opts: { allowPendingPasswordChange: boolean }): Promise<AdminPrincipal> {
    if (!accessToken) throw new UnauthenticatedError();
    const now = this.clock.now();
    const claims = this.tokens.verifyAccess(accessToken, now);
    if (!claims) throw new UnauthenticatedError('Invalid or expired token');
    const adminId = Number(claims.sub);
    if (!UUID.test(claims.sid)) throw new UnauthenticatedError('Invalid or expired token');
    const live = await this.sessions.findLive(this.db, claims.sid, adminId, now);
    if (!live) throw new UnauthenticatedError('The session has ended; log in again');
    if (live.mustChangePassword && !opts.allowPendingPasswordChange) throw new PasswordChangeRequiredError();
    if (now.getTime() - live.lastAccessAt.getTime() > TOUCH_EVERY_MS) await this.sessions.touch(this.db, live.sessionId, now);
    return { kind: 'admin', adminId, sessionId: live.sessionId, role: claims.role, permissions: claims.perms };
  }

  /** Whether a session is still alive (long-lived connections such as the ticket stream re-check it). */
  async isSessionLive(adminId: number, sessionId: string): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    return (await this.sessions.findLive(this.db, sessionId, adminId, this.clock.now())) !== undefined;
  }

  async prune(): Promise<{ sessions: number; refreshTokens: number }> {
    const now = this.clock.now().getTime();
    return {
      refreshTokens: await this.sessions.pruneExpiredRefreshTokens(this.db, new Date(now - SPENT_TOKEN_RETENTION_DAYS * DAY_MS)),
      sessions: await this.sessions.pruneEnded(this.db, new Date(now - ENDED_SESSION_RETENTION_DAYS * DAY_MS)),
    };
  }
}

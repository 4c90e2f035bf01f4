import type { Clock } from '../../platform/clock.js';
import { DAY_MS, ENDED_SESSION_RETENTION_DAYS, SPENT_TOKEN_RETENTION_DAYS } from '../../platform/housekeeping.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { RefreshTokens } from '../../platform/refresh-tokens/refresh-tokens.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { CustomerPrincipal } from '../../platform/http/auth.js';
import type { AuthRepository } from './auth.repository.js';
import { IMPERSONATION_TTL_SECONDS, REFRESH_TTL_SECONDS, type CustomerTokens } from './auth.tokens.js';
import type { SessionForAuth, SessionRow, SessionsRepository } from './sessions.repository.js';
import { SecurityAction, type SecurityEvents } from './security-events.js';
import type { RiderRead } from '../../platform/db/prepared.js';

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

/** What a login hands to the HTTP layer to put into cookies. */
export interface IssuedSession {
  sessionId: string;
  customerId: number;
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
  /** What is left of the refresh token's life, for the cookie's Max-Age. */
  refreshMaxAgeSeconds: number;
}

export interface SessionEntry {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastAccessAt: Date;
  /** the session of the request that asked */
  current: boolean;
  impersonated: boolean;
}

export const MAX_SESSION_LIMIT = 100;
const REALM = 'customer';
/** A session id is a UUID; anything else is no session (and is not sent to the database). */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The staff permission an impersonation session lives on (admins' catalog, permissions.ts). */
export const IMPERSONATE_PERMISSION = 'impersonate_user';

/**
 * What auth asks the admins module about a staff member who impersonates a customer (a port: auth
 * knows no admin table; AdminsRepository answers).
 */
export interface ImpersonatorAuthority {
  /** The admin's role now; undefined for an unknown admin. */
  roleOf(ex: Executor, adminId: number): Promise<number | undefined>;
  /**
   * Whether the admin is not deleted, still has `roleId` (the role the impersonation began with),
   * and that role holds `permission` (the locked Super Admin role holds every one).
   */
  stillHolds(ex: Executor, adminId: number, roleId: number, permission: string): Promise<boolean>;
}

/** Device sessions: one per login, checked on every request, revocable by the customer and staff. */
export class SessionService {
  readonly pruneJob = defineJob<object>({
    name: 'auth.prune',
    schedule: '40 3 * * *',
    description: `Deletes customer sessions ended more than ${ENDED_SESSION_RETENTION_DAYS} days ago and expired mail tokens and 2FA challenges`,
    handler: async (_p, ctx) => ctx.log.info(await this.prune(), 'customer identity pruned'),
  });

  constructor(
    private readonly db: Database,
    private readonly repo: SessionsRepository,
    private readonly authRepo: AuthRepository,
    private readonly tokens: CustomerTokens,
    private readonly clock: Clock,
    private readonly events: SecurityEvents,
    private readonly refreshTokens: RefreshTokens,
    private readonly impersonators: ImpersonatorAuthority,
  ) {}

  /** The session for authentication, with whether its impersonator (if any) still may impersonate. */
  private async forAuth(ex: Executor, id: string, rider?: RiderRead<unknown>): Promise<(SessionForAuth & { impersonatorMay: boolean; rider?: unknown }) | undefined> {
    const found = rider ? await this.repo.findForAuthWith(ex, id, rider) : undefined;
    const row = found ? { ...found.session, rider: found.rider } : await this.repo.findForAuth(ex, id);
    if (!row) return undefined;
    const impersonatorMay =
      row.impersonatorAdminId === null ||
      (row.impersonatorRoleId !== null && (await this.impersonators.stillHolds(ex, row.impersonatorAdminId, row.impersonatorRoleId, IMPERSONATE_PERMISSION)));
    return { ...row, impersonatorMay };
  }

  /**
   * Opens a session inside the caller's transaction. The customer row is locked so parallel logins
   * cannot both slip under max_session; the least recently used sessions beyond it are revoked.
   */
  async open(tx: Executor, customerId: number, meta: ClientMeta, impersonatorAdminId?: number): Promise<IssuedSession> {
    const now = this.clock.now();
    const customer = await this.authRepo.findById(tx, customerId, { forUpdate: true });
    if (!customer) throw new NotFoundError('Customer');
    // Deactivated after the login's checks (impersonation answers its own 409 below): no session is born after it.
    if (!customer.isActive && !impersonatorAdminId) throw new ForbiddenError('This account is disabled', 'ACCOUNT_DISABLED');
    const refreshExpiresAt = new Date(now.getTime() + (impersonatorAdminId ? IMPERSONATION_TTL_SECONDS : REFRESH_TTL_SECONDS) * 1000);
    const row = await this.repo.insert(tx, {
      customerId,
      refreshExpiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      now,
      impersonatorAdminId: impersonatorAdminId ?? null,
      impersonatorRoleId: impersonatorAdminId ? ((await this.impersonators.roleOf(tx, impersonatorAdminId)) ?? null) : null,
    });
    if (!impersonatorAdminId) await this.repo.revokeOverflow(tx, customerId, customer.maxSession, now);
    return this.issue(row, await this.refreshTokens.issue(tx, REALM, row.id, row.refreshExpiresAt));
  }

  private issue(row: SessionRow, refreshToken: string): IssuedSession {
    const access = this.tokens.access({
      customerId: row.customerId,
      sessionId: row.id,
      ...(row.impersonatorAdminId ? { impersonatorAdminId: row.impersonatorAdminId } : {}),
    });
    return {
      sessionId: row.id,
      customerId: row.customerId,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      refreshToken,
      refreshExpiresAt: row.refreshExpiresAt,
      refreshMaxAgeSeconds: Math.max(1, Math.floor((row.refreshExpiresAt.getTime() - this.clock.now().getTime()) / 1000)),
    };
  }

  /**
   * The caller of an access token, or 401 when the token or its session is not alive. With a
   * `rider`, its row for the session's customer is read in the same statement (`rider` of the answer).
   */
  async authenticate(accessToken: string | undefined, rider?: RiderRead<unknown>): Promise<CustomerPrincipal & { rider?: unknown }> {
    const claims = this.tokens.verifyAccess(accessToken);
    if (!claims) throw new UnauthenticatedError();
    const row = await this.forAuth(this.db, claims.sessionId, rider);
    if (!row || row.revokedAt || row.customerId !== claims.customerId || !row.customerActive) {
      throw new UnauthenticatedError('Your session has ended, please log in again');
    }
    const now = this.clock.now();
    if (row.impersonatorAdminId && (now.getTime() >= row.createdAt.getTime() + IMPERSONATION_TTL_SECONDS * 1000 || !row.impersonatorMay)) {
      if (!row.impersonatorMay) await this.repo.revoke(this.db, row.id, 'impersonator_lost_authority', now);
      throw new UnauthenticatedError('The impersonation session has ended');
    }
    // Removed from the account the session acts on (the removal also ends such sessions, in its transaction).
    // A person whose own account is closed (or who left it after handing it over) still signs in:
    // they may use their own routes only, to switch to another account they belong to.
    const own = row.accountId === row.customerId;
    if (row.memberRole === null && !own) throw new UnauthenticatedError('You are no longer a member of this account, please log in again');
    if (now.getTime() - row.lastAccessAt.getTime() > 60_000) await this.repo.touch(this.db, row.id, now);
    const accountBlock =
      row.memberRole === null ? (row.accountClosed ? 'ACCOUNT_CLOSED' : 'NOT_A_MEMBER')
      : own ? undefined
      : row.accountClosed ? 'ACCOUNT_CLOSED'
      : !row.accountActive ? 'ACCOUNT_DISABLED'
      : row.twoFactorMissing ? 'TWO_FACTOR_REQUIRED'
      : undefined;
    return {
      kind: 'customer',
      customerId: row.accountId,
      personId: row.customerId,
      ...(row.memberRole !== null ? { role: row.memberRole } : {}),
      ...(accountBlock ? { accountBlock } : {}),
      sessionId: row.id,
      ...(row.impersonatorAdminId ? { impersonatorAdminId: row.impersonatorAdminId } : {}),
      ...(row.rider !== undefined ? { rider: row.rider } : {}),
    };
  }

  /**
   * Whether a session still lets its customer in, read from the database now (no access token):
   * false once it was logged out or revoked (by the customer, staff, a password change, the session
   * limit), the account was deactivated, or an impersonation outlived its hour or its staff member's
   * authority. Long-lived connections (the VM console) ask it at each heartbeat.
   */
  async stillLive(customerId: number, sessionId: string): Promise<boolean> {
    if (!UUID_SHAPE.test(sessionId)) return false;
    const row = await this.forAuth(this.db, sessionId);
    if (!row || row.revokedAt || row.customerId !== customerId || !row.customerActive) return false;
    if (!row.impersonatorAdminId) return true;
    return row.impersonatorMay && this.clock.now().getTime() < row.createdAt.getTime() + IMPERSONATION_TTL_SECONDS * 1000;
  }

  /**
   * Rotates the refresh token (src/platform/refresh-tokens) and slides the session's end 30 days on
   * (an impersonation keeps its hour). Presenting an already rotated token revokes the whole session.
   */
  async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000);
    const outcome = await this.db.transaction(async (tx) => {
      const used = await this.refreshTokens.rotate(tx, REALM, refreshToken);
      if (used.kind !== 'rotated') return used;
      const row = await this.repo.extend(tx, used.sessionId, expiresAt, now, { untilExpired: true });
      if (!row) return { kind: 'invalid' as const };
      const owner = await this.authRepo.findById(tx, row.customerId);
      if (!owner?.isActive) return { kind: 'invalid' as const };
      if (row.impersonatorAdminId && !(await this.forAuth(tx, row.id))?.impersonatorMay) {
        await this.repo.revoke(tx, row.id, 'impersonator_lost_authority', now);
        return { kind: 'invalid' as const };
      }
      return { kind: 'issued' as const, row, next: await this.refreshTokens.issue(tx, REALM, row.id, row.refreshExpiresAt) };
    });
    if (outcome.kind === 'issued') return this.issue(outcome.row, outcome.next);
    if (outcome.kind === 'reused') await this.repo.revoke(this.db, outcome.sessionId, 'refresh_token_reuse', now);
    throw new UnauthenticatedError('Your session has ended, please log in again');
  }

  /** New cookies for a live session (after an e-mail change), inside the caller's transaction. */
  async reissue(tx: Executor, sessionId: string): Promise<IssuedSession> {
    const now = this.clock.now();
    const row = await this.repo.extend(tx, sessionId, new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000), now, { untilExpired: false });
    if (!row) throw new UnauthenticatedError('Your session has ended, please log in again');
    return this.issue(row, await this.refreshTokens.replace(tx, REALM, row.id, row.refreshExpiresAt));
  }

  /**
   * Ends the session named by a valid access token, else the one whose current refresh token this
   * is (the access token may have expired). Without either it does nothing: logout always succeeds.
   */
  async logout(cookies: { accessToken?: string | undefined; refreshToken?: string | undefined }): Promise<void> {
    const now = this.clock.now();
    const claims = this.tokens.verifyAccess(cookies.accessToken);
    const refresh = cookies.refreshToken;
    await this.db.transaction(async (tx) => {
      let ended: { id: string; customerId: number } | undefined;
      if (claims) {
        if (await this.repo.revoke(tx, claims.sessionId, 'logout', now, claims.customerId)) ended = { id: claims.sessionId, customerId: claims.customerId };
      } else {
        const sessionId = await this.refreshTokens.sessionOf(tx, REALM, refresh);
        const row = sessionId ? await this.repo.find(tx, sessionId) : undefined;
        if (row && (await this.repo.revoke(tx, row.id, 'logout', now))) ended = { id: row.id, customerId: row.customerId };
      }
      if (ended) await this.events.record(tx, SecurityAction.logout, ended.customerId, { session_id: ended.id });
    });
  }

  async list(customerId: number, currentSessionId?: string): Promise<SessionEntry[]> {
    const rows = await this.repo.listLive(this.db, customerId, this.clock.now());
    return rows.map((r) => ({
      id: r.id,
      ip: r.ip,
      userAgent: r.userAgent,
      createdAt: r.createdAt,
      lastAccessAt: r.lastAccessAt,
      current: r.id === currentSessionId,
      impersonated: r.impersonatorAdminId !== null,
    }));
  }

  /**
   * Revokes one session of the customer (404 when it is not theirs or not alive) or, with 'all', every
   * one. Runs on `ex` when given (staff routes audit in the same transaction).
   */
  async revoke(customerId: number, sessionId: string | 'all', reason = 'revoked', ex: Executor = this.db): Promise<number> {
    const now = this.clock.now();
    if (sessionId === 'all') return this.repo.revokeAll(ex, customerId, reason, now);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) throw new NotFoundError('Session');
    const done = await this.repo.revoke(ex, sessionId, reason, now, customerId);
    if (!done) throw new NotFoundError('Session');
    // Staff revocations are audited by the staff service with the admin as actor.
    if (reason === 'revoked') await this.events.record(ex, SecurityAction.sessionRevoked, customerId, { session_id: sessionId });
    return 1;
  }

  /** Revokes every session of the customer but `keep`, inside the caller's transaction. */
  revokeOthers(tx: Executor, customerId: number, keep: string | undefined, reason: string): Promise<number> {
    return this.repo.revokeAll(tx, customerId, reason, this.clock.now(), keep);
  }

  /** Staff: sets max_session and revokes the least recently used sessions beyond it at once. */
  async setMaxSession(customerId: number, maxSession: number, tx?: Executor): Promise<{ revoked: number }> {
    if (!Number.isInteger(maxSession) || maxSession < 1 || maxSession > MAX_SESSION_LIMIT) {
      throw new ValidationError('Validation failed', [{ field: 'max_session', message: `must be an integer from 1 to ${MAX_SESSION_LIMIT}` }]);
    }
    const run = async (tx: Executor) => {
      const customer = await this.authRepo.findById(tx, customerId, { forUpdate: true });
      if (!customer) throw new NotFoundError('Customer');
      await this.authRepo.setMaxSession(tx, customerId, maxSession);
      return { revoked: await this.repo.revokeOverflow(tx, customerId, maxSession, this.clock.now()) };
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  /**
   * Staff (Admin Support): a customer session marked with the admin's id, for impersonation. It must
   * pass at once the rule every request of it meets (authenticate): the customer is active (409
   * CUSTOMER_INACTIVE) and the admin's current role, read from the database and not from their
   * token, holds impersonate_user (403). Otherwise nothing is kept: no session, no audit entry.
   */
  async impersonate(customerId: number, adminId: number, meta: ClientMeta, tx?: Executor): Promise<IssuedSession> {
    const run = async (t: Executor) => {
      const issued = await this.open(t, customerId, meta, adminId);
      const row = await this.forAuth(t, issued.sessionId);
      if (!row?.customerActive) throw new ConflictError('This customer account is deactivated and cannot be impersonated', 'CUSTOMER_INACTIVE');
      if (!row.impersonatorMay) throw new ForbiddenError('Your role no longer allows impersonation (it changed after you logged in)');
      return issued;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  async prune(): Promise<{ sessions: number; secrets: number }> {
    const now = this.clock.now().getTime();
    return {
      sessions: await this.repo.pruneEnded(this.db, new Date(now - ENDED_SESSION_RETENTION_DAYS * DAY_MS)),
      secrets: await this.authRepo.pruneExpiredSecrets(this.db, new Date(now - SPENT_TOKEN_RETENTION_DAYS * DAY_MS)),
    };
  }
}

import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, NotFoundError, QuotaExceededError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { defineJob } from '../../platform/queue/queue.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import type { RiderRead } from '../../platform/db/prepared.js';
import type { Actor, AuditService } from '../audit/index.js';
import { liveTokensLines, tokenCreatedMail } from './api-tokens.mails.js';
import type { ApiTokenRow, ApiTokensRepository } from './api-tokens.repository.js';
import { hashTokenSecret, isWellFormedToken, newTokenSecret } from './token-secret.js';
import { isTokenScope, type TokenScope } from './token-scopes.js';

const DAY_MS = 24 * 3600 * 1000;
/** A token lives 90 days unless its creator says otherwise, and never more than a year. */
export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;
/** Live (neither revoked nor expired) tokens per account. */
export const MAX_LIVE_TOKENS = 50;
/** `last_used_at` is written at most this often per token. */
export const LAST_USED_INTERVAL_MS = 60_000;
/** Revoked and expired tokens stay listed this long, then `api-tokens.prune` deletes them. */
export const TOKEN_RETENTION_DAYS = 90;

/** Who calls with a token: its account, the token and what it may reach. */
export interface TokenPrincipal {
  /** the token's holder */
  customerId: number;
  /** the account it acts on */
  accountId: number;
  /** the holder's role in that account now */
  role: string;
  twoFactorMissing: boolean;
  tokenId: number;
  scopes: readonly string[];
}

/** The rate limits of a token request: `count` adds the request to them and throws past one. */
export interface TokenRequestLimits {
  count(): Promise<void>;
}

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  expires_in_days?: number;
  expires_at?: string;
}

export type TokenState = 'active' | 'expired' | 'revoked';

/** Personal access tokens: created with a sudo-fresh session, used as `Authorization: Bearer`. */
export class ApiTokensService {
  constructor(
    private readonly db: Database,
    private readonly repo: ApiTokensRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    /** The console's page where a customer manages their tokens (named in the mails), if a console is served. */
    private readonly consoleUrl: string | undefined,
  ) {}

  stateOf(t: ApiTokenRow): TokenState {
    if (t.revokedAt) return 'revoked';
    return t.expiresAt.getTime() <= this.clock.now().getTime() ? 'expired' : 'active';
  }

  /**
   * Creates a token; the secret in the answer is shown this once and never again. The owner is
   * mailed its name, scopes and expiry (never the secret), so a token made by someone else is seen.
   */
  async create(customerId: number, input: CreateTokenInput, accountId: number = customerId): Promise<{ token: ApiTokenRow; secret: string }> {
    const now = this.clock.now();
    const scopes = [...new Set(input.scopes)].sort();
    const unknown = scopes.filter((s) => !isTokenScope(s));
    if (unknown.length > 0) throw new ValidationError('Unknown scope', unknown.map((s) => ({ field: 'scopes', message: `unknown scope ${s}` })));
    const expiresAt = this.expiryOf(input, now);
    const minted = newTokenSecret();
    const token = await this.db.transaction(async (tx) => {
      const owner = await this.repo.lockCustomer(tx, customerId);
      if (!owner) throw new NotFoundError('Customer');
      // Deactivated while this request was on its way: it ended the sessions, so no token is born after it.
      if (!owner.isActive) throw new UnauthenticatedError('Your session has ended, please log in again');
      if ((await this.repo.countLive(tx, customerId, now)) >= MAX_LIVE_TOKENS) throw new QuotaExceededError(`At most ${MAX_LIVE_TOKENS} live API tokens per account`);
      const row = await this.repo.insert(tx, {
        customerId,
        accountId: accountId === customerId ? null : accountId,
        name: input.name.trim(),
        scopes: scopes as TokenScope[],
        displayPrefix: minted.displayPrefix,
        secretHash: minted.hash,
        createdAt: now,
        expiresAt,
      });
      noteActivityTarget(row.id);
      await this.mailer.queueMail(owner.email, tokenCreatedMail(row, this.consoleUrl), tx);
      return row;
    });
    return { token, secret: minted.secret };
  }

  private expiryOf(input: CreateTokenInput, now: Date): Date {
    if (input.expires_in_days !== undefined && input.expires_at !== undefined) {
      throw new ValidationError('Give expires_in_days or expires_at, not both', [{ field: 'expires_at', message: 'not together with expires_in_days' }]);
    }
    if (input.expires_at === undefined) return new Date(now.getTime() + (input.expires_in_days ?? DEFAULT_TOKEN_DAYS) * DAY_MS);
    const at = new Date(input.expires_at);
    if (at.getTime() <= now.getTime()) throw new ValidationError('The expiry must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]);
    if (at.getTime() > now.getTime() + MAX_TOKEN_DAYS * DAY_MS) {
      throw new ValidationError('A token lives at most a year', [{ field: 'expires_at', message: `at most ${MAX_TOKEN_DAYS} days from now` }]);
    }
    return at;
  }

  list(customerId: number, p: PageRequest): Promise<Page<ApiTokenRow>> {
    return this.repo.list(this.db, customerId, p);
  }

  async rename(customerId: number, id: number, name: string): Promise<ApiTokenRow> {
    return this.db.transaction(async (tx) => {
      const token = await this.repo.rename(tx, customerId, id, name.trim());
      if (!token) throw new NotFoundError('API token');
      return token;
    });
  }

  /**
   * Revokes at once: the token's next request answers 401. Revoking a revoked token is a 404. The
   * customer's own revoke is in their activity log; staff's is audited here, naming the token.
   */
  async revoke(by: 'customer' | Actor, customerId: number, id: number): Promise<ApiTokenRow> {
    return this.db.transaction(async (tx) => {
      const token = await this.repo.revoke(tx, customerId, id, by === 'customer' ? 'customer' : 'staff', this.clock.now());
      if (!token) throw new NotFoundError('Live API token');
      if (by !== 'customer') {
        await this.audit.record(tx, { actor: by, action: 'api_token.revoked', targetType: 'api_token', targetId: token.id, after: { customer_id: customerId, name: token.name, prefix: token.displayPrefix, revoked_by: 'staff' } });
      }
      return token;
    });
  }

  /** Revokes every live token of the account at once (the customer's "revoke all"). */
  async revokeAll(customerId: number): Promise<{ revoked: number }> {
    return this.db.transaction(async (tx) => ({ revoked: await this.repo.revokeAllLive(tx, customerId, 'customer', this.clock.now()) }));
  }

  /**
   * Revokes every live token inside the caller's transaction: how an account recovery or a
   * deactivation ends them (the auth and customer administration modules call it).
   */
  revokeAllIn(tx: Executor, customerId: number, by: 'customer' | 'staff'): Promise<number> {
    return this.repo.revokeAllLive(tx, customerId, by, this.clock.now());
  }

  /** Lines for a security notice that keeps the tokens: which still work and how to revoke them all. */
  async liveTokensNotice(ex: Executor, customerId: number): Promise<string[]> {
    return liveTokensLines(await this.repo.listLive(ex, customerId, this.clock.now()), this.consoleUrl);
  }

  /**
   * The caller of a request with `Authorization: Bearer <secret>`, counted against `limits` while
   * the token is read (the two statements run side by side): past a limit it is 429 whatever the
   * token. With a `rider`, its row for the token's customer is read in the token's statement.
   * A malformed secret is refused without a database read (the caller counts it by address); a
   * revoked or expired token, or one of a deactivated account, is 401; a suspended account's
   * tokens answer 403 until the suspension ends.
   */
  async authenticate(secret: string, ip: string | null, limits: TokenRequestLimits, rider?: RiderRead<unknown>): Promise<TokenPrincipal & { rider?: unknown }> {
    if (!isWellFormedToken(secret)) throw new UnauthenticatedError('Invalid API token');
    const now = this.clock.now();
    // counted and read at once; past a limit the read's answer is not looked at
    const [, found] = await Promise.all([limits.count(), this.repo.findForAuth(this.db, hashTokenSecret(secret), rider)]);
    const token = found?.token;
    // A holder removed from the account (their tokens of it are revoked with the removal) or an account switched off.
    if (!token || !token.customerActive || token.memberRole === null) throw new UnauthenticatedError('Invalid API token');
    if (token.revokedAt) throw new UnauthenticatedError('This API token was revoked');
    if (token.expiresAt.getTime() <= now.getTime()) throw new UnauthenticatedError('This API token has expired');
    if (token.customerSuspended) {
      throw new AppError(403, 'ACCOUNT_SUSPENDED', 'The account is suspended: its API tokens work again once the suspension ends (top up in the dashboard)');
    }
    const staleBefore = new Date(now.getTime() - LAST_USED_INTERVAL_MS);
    if (!token.lastUsedAt || token.lastUsedAt.getTime() < staleBefore.getTime()) await this.repo.touch(this.db, token.id, now, ip, staleBefore);
    return { customerId: token.customerId, accountId: token.accountId, role: token.memberRole, twoFactorMissing: token.twoFactorMissing, tokenId: token.id, scopes: token.scopes, ...(found?.rider !== undefined ? { rider: found.rider } : {}) };
  }

  /**
   * Whether a token still lets its customer in, read now: false once it was revoked or expired, or
   * its account was deactivated or suspended (when its requests answer 401 or 403). Long-lived
   * connections opened with it (the VM console) ask at each heartbeat.
   */
  async stillLive(customerId: number, tokenId: number): Promise<boolean> {
    const token = await this.repo.findForHolder(this.db, tokenId);
    if (!token || token.customerId !== customerId || !token.customerActive || token.customerSuspended || token.revokedAt) return false;
    return token.expiresAt.getTime() > this.clock.now().getTime();
  }

  readonly pruneJob = defineJob<object>({
    name: 'api-tokens.prune',
    schedule: '55 3 * * *',
    description: `Deletes API tokens revoked or expired more than ${TOKEN_RETENTION_DAYS} days ago`,
    handler: async (_payload, ctx) => {
      const n = await this.repo.prune(this.db, new Date(this.clock.now().getTime() - TOKEN_RETENTION_DAYS * DAY_MS));
      ctx.log.info({ deleted: n }, 'API tokens pruned');
    },
  });
}

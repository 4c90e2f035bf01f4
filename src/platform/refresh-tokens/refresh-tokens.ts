import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { randomToken, sha256Hex } from '../crypto/index.js';
import type { Database, Executor } from '../db/database.js';
import { DAY_MS, SPENT_TOKEN_RETENTION_DAYS } from '../housekeeping.js';
import { defineJob } from '../queue/queue.js';
import { refreshTokens } from './refresh-tokens.tables.js';

export type RefreshRealm = 'customer' | 'admin';

/** Presented tokens longer than this are not looked up. */
const MAX_TOKEN_LENGTH = 200;

export type RotateOutcome =
  /** the token was current: it is used now; the caller checks its session and issues the next */
  | { kind: 'rotated'; sessionId: string }
  /** the token was used before: stolen or replayed, the caller ends the session */
  | { kind: 'reused'; sessionId: string }
  /** unknown, expired, or of another realm */
  | { kind: 'invalid' };

/**
 * The one refresh-token mechanism of customer and staff sessions: opaque 256-bit tokens stored as
 * SHA-256, rotated on every use (a single winner under races), reuse of a rotated token reported
 * to the caller, who ends the session. The session tables keep their own lifetime rules
 * (customers slide 30 days, impersonations end after an hour, staff end 12 hours after login);
 * the caller passes each new token's expiry.
 */
export class RefreshTokens {
  readonly pruneJob = defineJob<object>({
    name: 'platform.refresh-tokens-prune',
    schedule: '40 3 * * *',
    description: `Deletes refresh tokens (customer and staff) that expired more than ${SPENT_TOKEN_RETENTION_DAYS} day(s) ago, used or not`,
    handler: async (_p, ctx) => ctx.log.info({ deleted: await this.prune(new Date(this.clock.now().getTime() - SPENT_TOKEN_RETENTION_DAYS * DAY_MS)) }, 'refresh tokens pruned'),
  });

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** A new current token for the session (login, or after a rotation). */
  async issue(ex: Executor, realm: RefreshRealm, sessionId: string, expiresAt: Date): Promise<string> {
    const token = randomToken();
    await ex.insert(refreshTokens).values({ tokenHash: sha256Hex(token), realm, sessionId, expiresAt, createdAt: this.clock.now() });
    return token;
  }

  /** Uses the presented token up: run it in the transaction that issues the next one. */
  async rotate(ex: Executor, realm: RefreshRealm, token: string | undefined): Promise<RotateOutcome> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid' };
    const now = this.clock.now();
    const hash = sha256Hex(token);
    const [used] = await ex
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, hash), eq(refreshTokens.realm, realm), isNull(refreshTokens.usedAt), sql`${refreshTokens.expiresAt} > ${now.toISOString()}::timestamptz`))
      .returning({ sessionId: refreshTokens.sessionId });
    if (used) return { kind: 'rotated', sessionId: used.sessionId };
    const [old] = await ex
      .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tokenHash, hash), eq(refreshTokens.realm, realm)));
    return old?.usedAt ? { kind: 'reused', sessionId: old.sessionId } : { kind: 'invalid' };
  }

  /** The session whose current (unused, unexpired) token this is: logout with only the refresh cookie. */
  async sessionOf(ex: Executor, realm: RefreshRealm, token: string | undefined): Promise<string | undefined> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
    const [row] = await ex
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.tokenHash, sha256Hex(token)),
          eq(refreshTokens.realm, realm),
          isNull(refreshTokens.usedAt),
          sql`${refreshTokens.expiresAt} > ${this.clock.now().toISOString()}::timestamptz`,
        ),
      );
    return row?.sessionId;
  }

  /**
   * Replaces the session's current token without recording it as rotated (new cookies for the
   * same session, e.g. after an e-mail change): the old one is simply unknown afterwards.
   */
  async replace(ex: Executor, realm: RefreshRealm, sessionId: string, expiresAt: Date): Promise<string> {
    await ex.delete(refreshTokens).where(and(eq(refreshTokens.realm, realm), eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.usedAt)));
    return this.issue(ex, realm, sessionId, expiresAt);
  }

  /** Deletes tokens that expired before `before`, used or not. */
  async prune(before: Date, ex: Executor = this.db): Promise<number> {
    const rows = await ex.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before)).returning({ hash: refreshTokens.tokenHash });
    return rows.length;
  }
}

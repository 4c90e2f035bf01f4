import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { runPrepared } from '../../platform/db/prepared.js';
import { customers } from '../customers/customers.tables.js';
import { customerRefreshTokenHistory, customerSessions } from './auth.tables.js';
import { IMPERSONATION_TTL_SECONDS } from './auth.tokens.js';

export interface SessionRow {
  id: string;
  customerId: number;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastAccessAt: Date;
  revokedAt: Date | null;
  refreshExpiresAt: Date;
  impersonatorAdminId: number | null;
}

const columns = {
  id: customerSessions.id,
  customerId: customerSessions.customerId,
  ip: customerSessions.ip,
  userAgent: customerSessions.userAgent,
  createdAt: customerSessions.createdAt,
  lastAccessAt: customerSessions.lastAccessAt,
  revokedAt: customerSessions.revokedAt,
  refreshExpiresAt: customerSessions.refreshExpiresAt,
  impersonatorAdminId: customerSessions.impersonatorAdminId,
};

/** A new refresh expiry, never beyond the end of an impersonated session. */
function cappedExpiry(expiresAt: Date) {
  return sql`case when ${customerSessions.impersonatorAdminId} is null then ${expiresAt.toISOString()}::timestamptz
    else least(${expiresAt.toISOString()}::timestamptz, ${customerSessions.createdAt} + make_interval(secs => ${IMPERSONATION_TTL_SECONDS})) end`;
}

export class SessionsRepository {
  async insert(
    ex: Executor,
    row: { customerId: number; refreshTokenHash: string; refreshExpiresAt: Date; ip: string | null; userAgent: string | null; now: Date; impersonatorAdminId?: number | null },
  ): Promise<SessionRow> {
    const [created] = await ex
      .insert(customerSessions)
      .values({
        customerId: row.customerId,
        refreshTokenHash: row.refreshTokenHash,
        refreshExpiresAt: row.refreshExpiresAt,
        ip: row.ip,
        userAgent: row.userAgent,
        createdAt: row.now,
        lastAccessAt: row.now,
        impersonatorAdminId: row.impersonatorAdminId ?? null,
      })
      .returning(columns);
    return created!;
  }

  /** The session with what authentication needs to know about its customer. */
  async findForAuth(ex: Executor, id: string) {
    // every authenticated request runs this: a prepared query (platform/db/prepared.ts)
    const [row] = await runPrepared(
      ex,
      'auth_session_for_request',
      (e) =>
        e
          .select({ ...columns, customerActive: customers.isActive })
          .from(customerSessions)
          .innerJoin(customers, eq(customers.id, customerSessions.customerId))
          .where(eq(customerSessions.id, sql.placeholder('id'))),
      { id },
    );
    return row;
  }

  async find(ex: Executor, id: string): Promise<SessionRow | undefined> {
    const [row] = await ex.select(columns).from(customerSessions).where(eq(customerSessions.id, id));
    return row;
  }

  /** Moves last_access_at forward at most once a minute, so reads stay cheap. */
  async touch(ex: Executor, id: string, now: Date): Promise<void> {
    await ex
      .update(customerSessions)
      .set({ lastAccessAt: now })
      .where(and(eq(customerSessions.id, id), sql`${customerSessions.lastAccessAt} < ${now.toISOString()}::timestamptz - interval '1 minute'`));
  }

  /**
   * Swaps the refresh token only if `oldHash` is still the current one (a single winner under
   * races), and records `oldHash` in the session's rotation history.
   */
  async rotate(ex: Executor, oldHash: string, newHash: string, expiresAt: Date, now: Date): Promise<SessionRow | undefined> {
    const [row] = await ex
      .update(customerSessions)
      .set({ refreshTokenHash: newHash, refreshExpiresAt: cappedExpiry(expiresAt), lastAccessAt: now })
      .where(
        and(
          eq(customerSessions.refreshTokenHash, oldHash),
          isNull(customerSessions.revokedAt),
          sql`${customerSessions.refreshExpiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning(columns);
    if (row) await ex.insert(customerRefreshTokenHistory).values({ tokenHash: oldHash, sessionId: row.id, rotatedAt: now }).onConflictDoNothing();
    return row;
  }

  /** Replaces the refresh token of a live session (new cookies for the same session); the old one is not recorded as rotated. */
  async replaceRefresh(ex: Executor, id: string, newHash: string, expiresAt: Date, now: Date): Promise<SessionRow | undefined> {
    const [row] = await ex
      .update(customerSessions)
      .set({ refreshTokenHash: newHash, refreshExpiresAt: cappedExpiry(expiresAt), lastAccessAt: now })
      .where(and(eq(customerSessions.id, id), isNull(customerSessions.revokedAt)))
      .returning(columns);
    return row;
  }

  /** The session that once rotated away from this refresh token, if any. */
  async findByRotatedHash(ex: Executor, hash: string): Promise<SessionRow | undefined> {
    const [row] = await ex
      .select(columns)
      .from(customerRefreshTokenHistory)
      .innerJoin(customerSessions, eq(customerSessions.id, customerRefreshTokenHistory.sessionId))
      .where(eq(customerRefreshTokenHistory.tokenHash, hash));
    return row;
  }

  /** Deletes rotation history written before `before`. */
  async pruneRotatedHashes(ex: Executor, before: Date): Promise<number> {
    const rows = await ex
      .delete(customerRefreshTokenHistory)
      .where(sql`${customerRefreshTokenHistory.rotatedAt} < ${before.toISOString()}::timestamptz`)
      .returning({ tokenHash: customerRefreshTokenHistory.tokenHash });
    return rows.length;
  }

  async revoke(ex: Executor, id: string, reason: string, now: Date, customerId?: number): Promise<boolean> {
    const rows = await ex
      .update(customerSessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(
        and(
          eq(customerSessions.id, id),
          isNull(customerSessions.revokedAt),
          customerId === undefined ? undefined : eq(customerSessions.customerId, customerId),
        ),
      )
      .returning({ id: customerSessions.id });
    return rows.length > 0;
  }

  /** Revokes the live session whose current refresh token has this hash (a rotated one names none). */
  async revokeByRefreshHash(ex: Executor, hash: string, reason: string, now: Date): Promise<boolean> {
    const rows = await ex
      .update(customerSessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(and(eq(customerSessions.refreshTokenHash, hash), isNull(customerSessions.revokedAt)))
      .returning({ id: customerSessions.id });
    return rows.length > 0;
  }

  /** Revokes every live session of a customer, except `keep` when given; returns how many. */
  async revokeAll(ex: Executor, customerId: number, reason: string, now: Date, keep?: string): Promise<number> {
    const rows = await ex
      .update(customerSessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(
        and(
          eq(customerSessions.customerId, customerId),
          isNull(customerSessions.revokedAt),
          keep === undefined ? undefined : ne(customerSessions.id, keep),
        ),
      )
      .returning({ id: customerSessions.id });
    return rows.length;
  }

  /** Keeps the `max` most recently used own sessions (impersonation sessions do not count). */
  async revokeOverflow(ex: Executor, customerId: number, max: number, now: Date): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      ex,
      sql`update customer_sessions set revoked_at = ${now.toISOString()}::timestamptz, revoke_reason = 'max_session'
          where id in (
            select id from customer_sessions
            where customer_id = ${customerId} and revoked_at is null and impersonator_admin_id is null
            order by last_access_at desc, created_at desc
            offset ${max}
          )
          returning id`,
    );
    return rows.length;
  }

  async listLive(ex: Executor, customerId: number, now: Date): Promise<SessionRow[]> {
    return ex
      .select(columns)
      .from(customerSessions)
      .where(
        and(
          eq(customerSessions.customerId, customerId),
          isNull(customerSessions.revokedAt),
          sql`${customerSessions.refreshExpiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(desc(customerSessions.lastAccessAt), asc(customerSessions.createdAt));
  }

  /** Deletes sessions that ended (revoked or expired) before `before`. */
  async pruneEnded(ex: Executor, before: Date): Promise<number> {
    const rows = await ex
      .delete(customerSessions)
      .where(sql`coalesce(${customerSessions.revokedAt}, ${customerSessions.refreshExpiresAt}) < ${before.toISOString()}::timestamptz`)
      .returning({ id: customerSessions.id });
    return rows.length;
  }
}

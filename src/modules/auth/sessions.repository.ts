import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { riderSql, rowMapper, runPrepared, selectList, sqlText, takeRider, type PreparedRead, type RiderRead } from '../../platform/db/prepared.js';
import { customers } from '../customers/customers.tables.js';
import { customerSessions } from './auth.tables.js';
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

export interface SessionForAuth extends SessionRow {
  customerActive: boolean;
  /** the account the session acts on (the person's own unless switched) */
  accountId: number;
  /** the person's role in it; null: no longer a member (the session ends) */
  memberRole: string | null;
  accountActive: boolean | null;
  /** the account requires 2FA of its members and the person has none */
  twoFactorMissing: boolean;
  /** the owner closed the account the session acts on */
  accountClosed: boolean;
  /** the impersonator's role when the impersonation began */
  impersonatorRoleId: number | null;
}

/** The account a session acts on: the one it switched to, else the person's own. */
const accountOfSession = sql`coalesce(${customerSessions.accountId}, ${customerSessions.customerId})`;

/**
 * The session by id ($1), with its customer's state, the person's membership of the account it acts
 * on (read at every request: a removal or a role change counts at the next one) and, for an
 * impersonation, the role it began with.
 */
const sessionForAuthColumns = {
  ...columns,
  customerActive: customers.isActive,
  impersonatorRoleId: customerSessions.impersonatorRoleId,
  accountId: accountOfSession,
  memberRole: sql`(select m.role from account_members m where m.account_id = ${accountOfSession} and m.customer_id = ${customerSessions.customerId})`,
  accountActive: sql`(select a.is_active from customers a where a.id = ${accountOfSession})`,
  twoFactorMissing: sql`(not ${customers.is2faActive} and exists (select 1 from account_settings st where st.account_id = ${accountOfSession} and st.require_2fa))`,
  accountClosed: sql`exists (select 1 from account_settings st where st.account_id = ${accountOfSession} and st.closed_at is not null)`,
};
const sessionForAuth: PreparedRead<SessionForAuth> = {
  name: 'auth_session_for_request',
  text: sqlText(sql`select ${selectList(sessionForAuthColumns)}
    from ${customerSessions}
    join ${customers} on ${customers.id} = ${customerSessions.customerId}
    where ${customerSessions.id} = $1`),
  map: rowMapper(sessionForAuthColumns),
};

/** sessionForAuth with `rider` joined, built once per rider. */
const withRiders = new Map<string, PreparedRead<{ session: SessionForAuth; rider: unknown }>>();
function sessionForAuthWith<R>(rider: RiderRead<R>): PreparedRead<{ session: SessionForAuth; rider: R | undefined }> {
  let read = withRiders.get(rider.name);
  if (!read) {
    const { columns, join } = riderSql(rider, accountOfSession);
    const map = rowMapper<SessionForAuth>(sessionForAuthColumns);
    read = {
      name: `auth_session_for_request+${rider.name}`,
      text: sqlText(sql`select ${selectList(sessionForAuthColumns)}${sql.raw(columns)}
        from ${customerSessions}
        join ${customers} on ${customers.id} = ${customerSessions.customerId}${sql.raw(join)}
        where ${customerSessions.id} = $1`),
      map: (row) => {
        const [found, rest] = takeRider(rider, row);
        return { session: map(rest), rider: found };
      },
    };
    withRiders.set(rider.name, read);
  }
  return read as PreparedRead<{ session: SessionForAuth; rider: R | undefined }>;
}

/** A new refresh expiry, never beyond the end of an impersonated session. */
function cappedExpiry(expiresAt: Date) {
  return sql`case when ${customerSessions.impersonatorAdminId} is null then ${expiresAt.toISOString()}::timestamptz
    else least(${expiresAt.toISOString()}::timestamptz, ${customerSessions.createdAt} + make_interval(secs => ${IMPERSONATION_TTL_SECONDS})) end`;
}

export class SessionsRepository {
  async insert(
    ex: Executor,
    row: { customerId: number; refreshExpiresAt: Date; ip: string | null; userAgent: string | null; now: Date; impersonatorAdminId?: number | null; impersonatorRoleId?: number | null },
  ): Promise<SessionRow> {
    const [created] = await ex
      .insert(customerSessions)
      .values({
        customerId: row.customerId,
        // the person's own account (null) unless they no longer belong to it (closed, or left after
        // handing it over): then the first other account they belong to
        accountId: sql`(select min(m.account_id) from account_members m where m.customer_id = ${row.customerId}
          and not exists (select 1 from account_members o where o.account_id = ${row.customerId} and o.customer_id = ${row.customerId}))`,
        refreshExpiresAt: row.refreshExpiresAt,
        ip: row.ip,
        userAgent: row.userAgent,
        createdAt: row.now,
        lastAccessAt: row.now,
        impersonatorAdminId: row.impersonatorAdminId ?? null,
        impersonatorRoleId: row.impersonatorRoleId ?? null,
      })
      .returning(columns);
    return created!;
  }

  /**
   * The session with what authentication needs to know about its customer and, for an
   * impersonation, the role it began with (the service asks the admins module whether the admin
   * still may). Every authenticated request runs this: a prepared query (platform/db/prepared.ts).
   */
  async findForAuth(ex: Executor, id: string): Promise<SessionForAuth | undefined> {
    const [row] = await runPrepared(ex, sessionForAuth, [id]);
    return row;
  }

  /** findForAuth with `rider`'s row for the session's customer, in the same statement. */
  async findForAuthWith<R>(ex: Executor, id: string, rider: RiderRead<R>): Promise<{ session: SessionForAuth; rider: R | undefined } | undefined> {
    const [row] = await runPrepared(ex, sessionForAuthWith(rider), [id]);
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
   * A refresh of a live session: its refresh expiry moves to `expiresAt` (never beyond the end of an
   * impersonation). `untilExpired`: only while the current refresh expiry has not passed.
   */
  async extend(ex: Executor, id: string, expiresAt: Date, now: Date, opts: { untilExpired: boolean }): Promise<SessionRow | undefined> {
    const [row] = await ex
      .update(customerSessions)
      .set({ refreshExpiresAt: cappedExpiry(expiresAt), lastAccessAt: now })
      .where(
        and(
          eq(customerSessions.id, id),
          isNull(customerSessions.revokedAt),
          opts.untilExpired ? sql`${customerSessions.refreshExpiresAt} > ${now.toISOString()}::timestamptz` : undefined,
        ),
      )
      .returning(columns);
    return row;
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

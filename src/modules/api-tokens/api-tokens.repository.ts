import { and, count, desc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { riderSql, rowMapper, runPrepared, selectList, sqlText, takeRider, type PreparedRead, type RiderRead } from '../../platform/db/prepared.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { apiTokens } from './api-tokens.tables.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** What a request with a token needs to know, in one read. */
export interface TokenForAuth {
  id: number;
  customerId: number;
  scopes: string[];
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  customerActive: boolean;
  customerSuspended: boolean;
  /** the account the token acts on (its holder's own unless bound to a team account) */
  accountId: number;
  /** the holder's role in it now; null: no longer a member */
  memberRole: string | null;
  /** the account requires 2FA of its members and the holder has none */
  twoFactorMissing: boolean;
}

const accountOfToken = sql`coalesce(${apiTokens.accountId}, ${apiTokens.customerId})`;

const tokenForAuthColumns = {
  id: apiTokens.id,
  customerId: apiTokens.customerId,
  accountId: accountOfToken,
  memberRole: sql`(select m.role from account_members m where m.account_id = ${accountOfToken} and m.customer_id = ${apiTokens.customerId})`,
  twoFactorMissing: sql`(not ${customers.is2faActive} and exists (select 1 from account_settings st where st.account_id = ${accountOfToken} and st.require_2fa))`,
  scopes: apiTokens.scopes,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  lastUsedAt: apiTokens.lastUsedAt,
  customerActive: sql`(${customers.isActive} and (select a.is_active from customers a where a.id = ${accountOfToken}))`,
  customerSuspended: sql`(select a.suspended_at is not null from customers a where a.id = ${accountOfToken})`,
};

/** The per-request read, prepared once per connection (platform/db/prepared.ts), as the session check is. */
const tokenForAuth: PreparedRead<TokenForAuth> = {
  name: 'api_token_for_request',
  text: sqlText(sql`select ${selectList(tokenForAuthColumns)} from ${apiTokens} join ${customers} on ${customers.id} = ${apiTokens.customerId} where ${apiTokens.secretHash} = $1`),
  map: rowMapper(tokenForAuthColumns),
};

const tokenForAuthSelect = sqlText(
  sql`select ${selectList(tokenForAuthColumns)} from ${apiTokens} join ${customers} on ${customers.id} = ${apiTokens.customerId} where ${apiTokens.secretHash} = $1`,
);
const mapTokenForAuth = rowMapper<TokenForAuth>(tokenForAuthColumns);

/** The per-request read of a token with a rider's row for the token's customer, built once per rider. */
const withRiders = new Map<string, PreparedRead<{ token: TokenForAuth; rider: unknown }>>();
function tokenForAuthWith<R>(rider: RiderRead<R>): PreparedRead<{ token: TokenForAuth; rider: R | undefined }> {
  let read = withRiders.get(rider.name);
  if (!read) {
    const joined = riderSql(rider, sql.raw('t."accountId"'));
    read = {
      name: `api_token_for_request+${rider.name}`,
      text: `select t.*${joined.columns} from (${tokenForAuthSelect}) as t${joined.join}`,
      map: (row) => {
        const [found, token] = takeRider(rider, row);
        return { token: mapTokenForAuth(token), rider: found };
      },
    };
    withRiders.set(rider.name, read);
  }
  return read as PreparedRead<{ token: TokenForAuth; rider: R | undefined }>;
}

export class ApiTokensRepository {
  async insert(ex: Executor, row: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
    const [created] = await ex.insert(apiTokens).values(row).returning();
    return created!;
  }

  async find(ex: Executor, customerId: number, id: number): Promise<ApiTokenRow | undefined> {
    const [row] = await ex
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.customerId, customerId)));
    return row;
  }

  async list(ex: Executor, customerId: number, p: PageRequest): Promise<Page<ApiTokenRow>> {
    const where = eq(apiTokens.customerId, customerId);
    const items = await ex.select().from(apiTokens).where(where).orderBy(desc(apiTokens.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(apiTokens).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Tokens neither revoked nor expired at `at`. */
  async countLive(ex: Executor, customerId: number, at: Date): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.customerId, customerId), isNull(apiTokens.revokedAt), sql`${apiTokens.expiresAt} > ${at.toISOString()}::timestamptz`));
    return row?.n ?? 0;
  }

  /** Locks the account's row; its e-mail address and state, or undefined for an unknown account. */
  async lockCustomer(ex: Executor, customerId: number): Promise<{ email: string; isActive: boolean } | undefined> {
    const [row] = await ex.select({ email: customers.email, isActive: customers.isActive }).from(customers).where(eq(customers.id, customerId)).for('update');
    return row;
  }

  /** The tokens neither revoked nor expired at `at`, newest first. */
  async listLive(ex: Executor, customerId: number, at: Date): Promise<ApiTokenRow[]> {
    return ex
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.customerId, customerId), isNull(apiTokens.revokedAt), sql`${apiTokens.expiresAt} > ${at.toISOString()}::timestamptz`))
      .orderBy(desc(apiTokens.id));
  }

  async rename(ex: Executor, customerId: number, id: number, name: string): Promise<ApiTokenRow | undefined> {
    const [row] = await ex
      .update(apiTokens)
      .set({ name })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.customerId, customerId)))
      .returning();
    return row;
  }

  /** Revokes a live token; undefined when it does not exist or was already revoked. */
  async revoke(ex: Executor, customerId: number, id: number, by: 'customer' | 'staff', at: Date): Promise<ApiTokenRow | undefined> {
    const [row] = await ex
      .update(apiTokens)
      .set({ revokedAt: at, revokedBy: by })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.customerId, customerId), isNull(apiTokens.revokedAt)))
      .returning();
    return row;
  }

  /** Revokes every token of the account that is neither revoked nor expired at `at`; how many. */
  async revokeAllLive(ex: Executor, customerId: number, by: 'customer' | 'staff', at: Date): Promise<number> {
    const rows = await ex
      .update(apiTokens)
      .set({ revokedAt: at, revokedBy: by })
      .where(and(eq(apiTokens.customerId, customerId), isNull(apiTokens.revokedAt), sql`${apiTokens.expiresAt} > ${at.toISOString()}::timestamptz`))
      .returning({ id: apiTokens.id });
    return rows.length;
  }

  /** The token with this secret hash and its account's state (the per-request read). */
  /** The token with its account's state (and `rider`'s row for its customer, when given), in one statement. */
  async findForAuth<R>(ex: Executor, secretHash: string, rider?: RiderRead<R>): Promise<{ token: TokenForAuth; rider: R | undefined } | undefined> {
    if (!rider) {
      const [token] = await runPrepared(ex, tokenForAuth, [secretHash]);
      return token && { token, rider: undefined };
    }
    const [row] = await runPrepared(ex, tokenForAuthWith(rider), [secretHash]);
    return row;
  }

  /** The token by id with its account's state (a holder's re-check, not a request). */
  async findForHolder(ex: Executor, id: number): Promise<TokenForAuth | undefined> {
    const [row] = await ex.select(tokenForAuthColumns).from(apiTokens).innerJoin(customers, eq(customers.id, apiTokens.customerId)).where(eq(apiTokens.id, id));
    return row as TokenForAuth | undefined;
  }

  /**
   * Records a use, unless one was recorded since `staleBefore` (so a busy token is written at most
   * once per interval, and several API processes do not each write it).
   */
  async touch(ex: Executor, id: number, at: Date, ip: string | null, staleBefore: Date): Promise<void> {
    await ex
      .update(apiTokens)
      .set({ lastUsedAt: at, lastUsedIp: ip })
      .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
  }

  /** Deletes tokens revoked or expired before `before`. */
  async prune(ex: Executor, before: Date): Promise<number> {
    const rows = await ex
      .delete(apiTokens)
      .where(or(lte(apiTokens.revokedAt, before), lte(apiTokens.expiresAt, before)))
      .returning({ id: apiTokens.id });
    return rows.length;
  }
}

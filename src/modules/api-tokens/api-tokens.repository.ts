import { and, count, desc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { rowMapper, runPrepared, selectList, sqlText, type PreparedRead } from '../../platform/db/prepared.js';
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
}

const tokenForAuthColumns = {
  id: apiTokens.id,
  customerId: apiTokens.customerId,
  scopes: apiTokens.scopes,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  lastUsedAt: apiTokens.lastUsedAt,
  customerActive: customers.isActive,
  customerSuspended: sql`${customers.suspendedAt} is not null`,
};

/** The per-request read, prepared once per connection (platform/db/prepared.ts), as the session check is. */
const tokenForAuth: PreparedRead<TokenForAuth> = {
  name: 'api_token_for_request',
  text: sqlText(sql`select ${selectList(tokenForAuthColumns)} from ${apiTokens} join ${customers} on ${customers.id} = ${apiTokens.customerId} where ${apiTokens.secretHash} = $1`),
  map: rowMapper(tokenForAuthColumns),
};

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

  async lockCustomer(ex: Executor, customerId: number): Promise<boolean> {
    const rows = await ex.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('update');
    return rows.length > 0;
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

  /** The token with this secret hash and its account's state (the per-request read). */
  async findForAuth(ex: Executor, secretHash: string): Promise<TokenForAuth | undefined> {
    const [row] = await runPrepared(ex, tokenForAuth, [secretHash]);
    return row;
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

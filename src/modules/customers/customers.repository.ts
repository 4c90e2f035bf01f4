import { count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { keysOf, rowMapper, runPrepared, selectList, sqlText, type RiderRead } from '../../platform/db/prepared.js';
import type { BalanceColumns, UnreadCounter } from './customers.ports.js';
import { customers } from './customers.tables.js';

const columns = {
  id: customers.id,
  email: customers.email,
  firstName: customers.firstName,
  lastName: customers.lastName,
  accountType: customers.accountType,
  billingType: customers.billingType,
  isActive: customers.isActive,
  isRegistrationCompleted: customers.isRegistrationCompleted,
  isIdentityVerified: customers.isIdentityVerified,
  is2faActive: customers.is2faActive,
  emailVerifiedAt: customers.emailVerifiedAt,
  suspendedAt: customers.suspendedAt,
  suspendReason: customers.suspendReason,
  doNotSuspendUntil: customers.doNotSuspendUntil,
  rewardFirstTopUp: customers.rewardFirstTopUp,
  rewardReferral: customers.rewardReferral,
  blockStorageLimit: customers.blockStorageLimit,
  loadbalancerLimit: customers.loadbalancerLimit,
  objectStorageLimit: customers.objectStorageLimit,
  privateIpLimit: customers.privateIpLimit,
  publicIpLimit: customers.publicIpLimit,
  vmLimit: customers.vmLimit,
  snapshotLimit: customers.snapshotLimit,
  maxSession: customers.maxSession,
  personalProfile: customers.personalProfile,
  businessProfile: customers.businessProfile,
  allowMarketingEmail: customers.allowMarketingEmail,
  allowBillingReminder: customers.allowBillingReminder,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

type UnreadCountOf = NonNullable<UnreadCounter['unreadCountOf']>;

export type CustomerRecord = Awaited<ReturnType<CustomersRepository['find']>> & object;
export type SummaryRow = CustomerRecord & { actualBalance: string | null; currentBalance: string | null; unreadCount?: number };

export type CustomerUpdate = Partial<Omit<typeof customers.$inferInsert, 'id' | 'email' | 'passwordHash' | 'createdAt'>>;

export class CustomersRepository {
  async find(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}) {
    const q = ex.select(columns).from(customers).where(eq(customers.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async emailsOf(ex: Executor, ids: number[]): Promise<{ id: number; email: string }[]> {
    return ids.length === 0 ? [] : ex.select({ id: customers.id, email: customers.email }).from(customers).where(inArray(customers.id, ids));
  }

  /**
   * The customer with the balances joined from `balances` and, when given, its unread notification
   * count as a subquery: GET /api/inf in one round trip, a prepared read (its text is built once
   * per process and set of ports). Balances are NUMERIC strings, null when the customer has no row.
   */
  async findWithBalances(ex: Executor, id: number, balances: BalanceColumns, unreadCountOf: UnreadCountOf | undefined) {
    const [row] = await runPrepared(ex, this.summaryRead(balances, unreadCountOf), [id]);
    return row;
  }

  /** Built at the first call: a process's ports do not change. */
  private summary: RiderRead<SummaryRow> | undefined;

  /** The summary's read ($1: the customer id), which can also ride with the request's authentication. */
  summaryRead(balances: BalanceColumns, unreadCountOf: UnreadCountOf | undefined): RiderRead<SummaryRow> {
    if (this.summary) return this.summary;
    const selected = {
      ...columns,
      actualBalance: balances.actual,
      currentBalance: balances.current,
      ...(unreadCountOf ? { unreadCount: unreadCountOf(customers.id) } : {}),
    };
    this.summary = {
      name: unreadCountOf ? 'customer_summary' : 'customer_with_balances',
      text: sqlText(sql`select ${selectList(selected)} from ${customers} left join ${balances.table} on ${balances.customerId} = ${customers.id} where ${customers.id} = $1`),
      map: rowMapper(selected),
      keys: keysOf(selected),
    };
    return this.summary;
  }

  async update(ex: Executor, id: number, values: CustomerUpdate, now: Date): Promise<void> {
    await ex.update(customers).set({ ...values, updatedAt: now }).where(eq(customers.id, id));
  }

  async list(ex: Executor, opts: { search?: string; limit: number; offset: number }) {
    let where: SQL | undefined;
    const term = opts.search?.trim();
    if (term) {
      const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where = or(
        ilike(customers.email, like),
        ilike(customers.firstName, like),
        ilike(customers.lastName, like),
        sql`(${customers.firstName} || ' ' || ${customers.lastName}) ilike ${like}`,
        /^\d{1,9}$/.test(term) ? eq(customers.id, Number(term)) : undefined,
      );
    }
    const items = await ex.select(columns).from(customers).where(where).orderBy(desc(customers.id)).limit(opts.limit).offset(opts.offset);
    const [total] = await ex.select({ n: count() }).from(customers).where(where);
    return { items, total: total?.n ?? 0 };
  }
}

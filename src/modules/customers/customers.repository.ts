import { count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { runPrepared } from '../../platform/db/prepared.js';
import type { BalanceColumns } from './customers.ports.js';
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
  maxSession: customers.maxSession,
  personalProfile: customers.personalProfile,
  businessProfile: customers.businessProfile,
  allowMarketingEmail: customers.allowMarketingEmail,
  allowBillingReminder: customers.allowBillingReminder,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

export type CustomerRecord = Awaited<ReturnType<CustomersRepository['find']>> & object;

export type CustomerUpdate = Partial<Omit<typeof customers.$inferInsert, 'id' | 'email' | 'passwordHash' | 'createdAt'>>;

export class CustomersRepository {
  async find(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}) {
    const q = ex.select(columns).from(customers).where(eq(customers.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  /**
   * The customer with the balances joined from `balances` (one round trip, a prepared query outside
   * transactions): GET /api/inf. Balances are NUMERIC strings, null when the customer has no row.
   */
  async findWithBalances(ex: Executor, id: number, balances: BalanceColumns) {
    const [row] = await runPrepared(
      ex,
      'customer_with_balances',
      (e) =>
        e
          .select({ ...columns, actualBalance: sql<string | null>`${balances.actual}`, currentBalance: sql<string | null>`${balances.current}` })
          .from(customers)
          .leftJoin(balances.table, eq(balances.customerId, customers.id))
          .where(eq(customers.id, sql.placeholder('id'))),
      { id },
    );
    return row;
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

import { count, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { offsetOf } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { balanceLogs, walletDrifts, wallets } from './wallet.tables.js';

export interface WalletRow {
  customerId: number;
  actualBalance: string;
  currentBalance: string;
}

export type LedgerRow = typeof balanceLogs.$inferSelect;
export type DriftRow = typeof walletDrifts.$inferSelect;
export type Drift = Omit<DriftRow, 'detectedAt'>;
export type NewLedgerRow = typeof balanceLogs.$inferInsert;

/** The balances as joinable columns (the customers module's BalanceReader.balanceColumns): one wallet row per customer. */
export const walletBalanceColumns = {
  table: wallets,
  customerId: wallets.customerId,
  actual: wallets.actualBalance,
  current: wallets.currentBalance,
};

export class WalletRepository {
  /** Creates the wallet if missing, then locks its row until the transaction ends. */
  async lockWallet(tx: Executor, customerId: number): Promise<WalletRow> {
    await tx.execute(sql`insert into wallets (customer_id) values (${customerId}) on conflict do nothing`);
    const [row] = await queryRows<{ customer_id: number; actual_balance: string; current_balance: string }>(
      tx,
      sql`select customer_id, actual_balance, current_balance from wallets where customer_id = ${customerId} for update`,
    );
    if (!row) throw new Error(`wallet ${customerId} vanished`);
    return { customerId: row.customer_id, actualBalance: row.actual_balance, currentBalance: row.current_balance };
  }

  /** Creates the missing wallets of these customers, then locks their rows in customer order (no deadlock between two lockers). */
  async lockWallets(tx: Executor, customerIds: number[]): Promise<WalletRow[]> {
    if (customerIds.length === 1) return [await this.lockWallet(tx, customerIds[0]!)];
    const ids = JSON.stringify([...new Set(customerIds)].sort((a, b) => a - b));
    await tx.execute(sql`insert into wallets (customer_id) select id::int from json_array_elements_text(${ids}::json) as j(id) order by 1 on conflict do nothing`);
    const rows = await queryRows<{ customer_id: number; actual_balance: string; current_balance: string }>(
      tx,
      sql`select customer_id, actual_balance, current_balance from wallets
          where customer_id in (select id::int from json_array_elements_text(${ids}::json) as j(id))
          order by customer_id for update`,
    );
    return rows.map((row) => ({ customerId: row.customer_id, actualBalance: row.actual_balance, currentBalance: row.current_balance }));
  }

  /** The entries that exist among these (type, reference) keys. */
  async findEntries(ex: Executor, keys: { type: string; referenceType: string; referenceId: string }[]): Promise<LedgerRow[]> {
    if (keys.length === 0) return [];
    return ex
      .select()
      .from(balanceLogs)
      .where(
        sql`(${balanceLogs.type}, ${balanceLogs.referenceType}, ${balanceLogs.referenceId}) in
            (select type, reference_type, reference_id from json_to_recordset(${JSON.stringify(keys.map((k) => ({ type: k.type, reference_type: k.referenceType, reference_id: k.referenceId })))}::json)
               as k(type text, reference_type text, reference_id text))`,
      );
  }

  /** Appends entries, skipping those whose (type, reference) exists; returns the ones appended. */
  async appendEntries(tx: Executor, entries: NewLedgerRow[]): Promise<LedgerRow[]> {
    if (entries.length === 0) return [];
    return tx.insert(balanceLogs).values(entries).onConflictDoNothing().returning();
  }

  /** Sets the balances of several wallets in one statement. */
  async setBalancesMany(tx: Executor, rows: { customerId: number; actual: string; current: string }[]): Promise<void> {
    if (rows.length === 0) return;
    if (rows.length === 1) return this.setBalances(tx, rows[0]!.customerId, rows[0]!.actual, rows[0]!.current);
    await tx.execute(
      sql`update wallets w set actual_balance = v.actual, current_balance = v.current
          from json_to_recordset(${JSON.stringify(rows.map((r) => ({ customer_id: r.customerId, actual: r.actual, current: r.current })))}::json)
            as v(customer_id int, actual numeric, current numeric)
          where w.customer_id = v.customer_id`,
    );
  }

  /** Appends an entry unless one with the same (type, reference) exists; undefined means it did. */
  async appendEntry(tx: Executor, entry: NewLedgerRow): Promise<LedgerRow | undefined> {
    const [row] = await tx.insert(balanceLogs).values(entry).onConflictDoNothing().returning();
    return row;
  }

  async setBalances(tx: Executor, customerId: number, actual: string, current: string): Promise<void> {
    await tx.update(wallets).set({ actualBalance: actual, currentBalance: current }).where(eq(wallets.customerId, customerId));
  }

  async find(ex: Executor, customerId: number): Promise<WalletRow | undefined> {
    const [row] = await ex
      .select({ customerId: wallets.customerId, actualBalance: wallets.actualBalance, currentBalance: wallets.currentBalance })
      .from(wallets)
      .where(eq(wallets.customerId, customerId));
    return row;
  }

  async findEntry(ex: Executor, type: string, referenceType: string, referenceId: string): Promise<LedgerRow | undefined> {
    const [row] = await ex
      .select()
      .from(balanceLogs)
      .where(sql`${balanceLogs.type} = ${type} and ${balanceLogs.referenceType} = ${referenceType} and ${balanceLogs.referenceId} = ${referenceId}`);
    return row;
  }

  async listEntries(ex: Executor, customerId: number, p: PageRequest): Promise<{ items: LedgerRow[]; total: number }> {
    const items = await ex
      .select()
      .from(balanceLogs)
      .where(eq(balanceLogs.customerId, customerId))
      .orderBy(desc(balanceLogs.id))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(balanceLogs).where(eq(balanceLogs.customerId, customerId));
    return { items, total: total?.n ?? 0 };
  }

  async customerContact(ex: Executor, customerId: number): Promise<{ email: string; firstName: string } | undefined> {
    const [row] = await ex.select({ email: customers.email, firstName: customers.firstName }).from(customers).where(eq(customers.id, customerId));
    return row;
  }

  async customerExists(ex: Executor, customerId: number): Promise<boolean> {
    const [row] = await ex.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    return row !== undefined;
  }

  /** Every wallet whose balances differ from the sums of its ledger (one statement: one snapshot). */
  async findDrifts(ex: Executor): Promise<Drift[]> {
    const rows = await queryRows<{ customer_id: number; actual_balance: string; current_balance: string; ledger_actual: string; ledger_current: string }>(
      ex,
      sql`select w.customer_id, w.actual_balance::text, w.current_balance::text,
                 coalesce(l.actual, 0)::numeric(18,2)::text as ledger_actual, coalesce(l.current, 0)::numeric(18,2)::text as ledger_current
          from wallets w
          left join (select customer_id, sum(actual_amount) as actual, sum(amount) as current from balance_logs group by customer_id) l
            on l.customer_id = w.customer_id
          where w.actual_balance <> coalesce(l.actual, 0) or w.current_balance <> coalesce(l.current, 0)
          order by w.customer_id`,
    );
    return rows.map((r) => ({
      customerId: r.customer_id,
      actualBalance: r.actual_balance,
      currentBalance: r.current_balance,
      ledgerActual: r.ledger_actual,
      ledgerCurrent: r.ledger_current,
    }));
  }

  async replaceDrifts(tx: Executor, drifts: Drift[], at: Date): Promise<void> {
    await tx.delete(walletDrifts);
    if (drifts.length > 0) await tx.insert(walletDrifts).values(drifts.map((d) => ({ ...d, detectedAt: at })));
  }

  async countDrifts(ex: Executor): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(walletDrifts);
    return row?.n ?? 0;
  }

  async listDrifts(ex: Executor, p: PageRequest): Promise<{ items: DriftRow[]; total: number }> {
    const items = await ex.select().from(walletDrifts).orderBy(walletDrifts.customerId).limit(p.limit).offset(offsetOf(p));
    return { items, total: await this.countDrifts(ex) };
  }
}

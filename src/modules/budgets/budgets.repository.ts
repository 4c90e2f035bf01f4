import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { budgetAlerts, budgets } from './budgets.tables.js';

export type Budget = typeof budgets.$inferSelect;
export type BudgetAlert = typeof budgetAlerts.$inferSelect;

export interface BudgetContact {
  email: string;
  first_name: string;
  /** the customer's "billing reminders" mail setting: budget and runway mails obey it */
  allow_billing_reminder: boolean;
}

export class BudgetsRepository {
  async find(ex: Executor, customerId: number, opts: { forUpdate?: boolean } = {}): Promise<Budget | undefined> {
    const q = ex.select().from(budgets).where(eq(budgets.customerId, customerId));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async save(ex: Executor, row: { customerId: number; monthlyAmount: string | null; thresholds: number[]; runwayAlertDays: number | null; updatedAt: Date }): Promise<Budget> {
    const [saved] = await ex
      .insert(budgets)
      .values(row)
      .onConflictDoUpdate({
        target: budgets.customerId,
        set: { monthlyAmount: row.monthlyAmount, thresholds: row.thresholds, runwayAlertDays: row.runwayAlertDays, updatedAt: row.updatedAt },
      })
      .returning();
    return saved!;
  }

  async remove(ex: Executor, customerId: number): Promise<boolean> {
    const rows = await ex.delete(budgets).where(eq(budgets.customerId, customerId)).returning({ id: budgets.customerId });
    return rows.length > 0;
  }

  /** The accounts with a budget row after `afterId`, in id order (the evaluation's pages). */
  async customerIdsAfter(ex: Executor, afterId: number, limit: number): Promise<number[]> {
    const rows = await ex.select({ id: budgets.customerId }).from(budgets).where(gt(budgets.customerId, afterId)).orderBy(asc(budgets.customerId)).limit(limit);
    return rows.map((r) => r.id);
  }

  /** Records a crossed threshold; false when this month already had it (another run or worker won). */
  async recordCrossing(ex: Executor, row: typeof budgetAlerts.$inferInsert): Promise<boolean> {
    const rows = await ex.insert(budgetAlerts).values(row).onConflictDoNothing().returning({ t: budgetAlerts.threshold });
    return rows.length > 0;
  }

  /** The thresholds crossed in a month, lowest first. */
  async crossings(ex: Executor, customerId: number, month: string): Promise<BudgetAlert[]> {
    return ex.select().from(budgetAlerts).where(and(eq(budgetAlerts.customerId, customerId), eq(budgetAlerts.month, month))).orderBy(asc(budgetAlerts.threshold));
  }

  /** The latest crossings of the account (the budget card's history). */
  async recentCrossings(ex: Executor, customerId: number, limit: number): Promise<BudgetAlert[]> {
    return ex.select().from(budgetAlerts).where(eq(budgetAlerts.customerId, customerId)).orderBy(desc(budgetAlerts.crossedAt), desc(budgetAlerts.threshold)).limit(limit);
  }

  /** Opens the runway incident; false when one is open already. */
  async openRunwayIncident(ex: Executor, customerId: number, at: Date): Promise<boolean> {
    const rows = await ex
      .update(budgets)
      .set({ runwayAlertSince: at })
      .where(and(eq(budgets.customerId, customerId), sql`${budgets.runwayAlertSince} is null`))
      .returning({ id: budgets.customerId });
    return rows.length > 0;
  }

  /** Closes the runway incident (the runway recovered); false when none was open. */
  async closeRunwayIncident(ex: Executor, customerId: number): Promise<boolean> {
    const rows = await ex
      .update(budgets)
      .set({ runwayAlertSince: null })
      .where(and(eq(budgets.customerId, customerId), sql`${budgets.runwayAlertSince} is not null`))
      .returning({ id: budgets.customerId });
    return rows.length > 0;
  }

  async contact(ex: Executor, customerId: number): Promise<BudgetContact | undefined> {
    const [row] = await queryRows<BudgetContact>(ex, sql`select email, first_name, allow_billing_reminder from customers where id = ${customerId}`);
    return row;
  }
}

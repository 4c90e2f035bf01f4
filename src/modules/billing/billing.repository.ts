import { and, asc, count, desc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { billingAccountSettings, paymentCallbacks, paymentMethods, topupInvoices, type CallbackOutcome } from './billing.tables.js';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type TopupInvoiceRow = typeof topupInvoices.$inferSelect;
export type NewTopupInvoice = typeof topupInvoices.$inferInsert;
export type NewPaymentCallback = typeof paymentCallbacks.$inferInsert;

export type PaymentCallbackRow = typeof paymentCallbacks.$inferSelect;

export interface CallbackFilter {
  invoiceId?: string;
  gatewayName?: string;
  outcome?: CallbackOutcome;
  signatureValid?: boolean;
}

export interface InvoiceFilter {
  customerId?: number;
  status?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class BillingRepository {
  listPaymentMethods(ex: Executor) {
    return ex
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.isActive, true))
      .orderBy(asc(paymentMethods.gatewayName), asc(paymentMethods.sortOrder), asc(paymentMethods.id));
  }

  async findPaymentMethod(ex: Executor, gatewayName: string, methodCode: string): Promise<PaymentMethodRow | undefined> {
    const [row] = await ex
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.gatewayName, gatewayName), eq(paymentMethods.methodCode, methodCode), eq(paymentMethods.isActive, true)));
    return row;
  }

  async seedPaymentMethods(ex: Executor, rows: (typeof paymentMethods.$inferInsert)[]): Promise<void> {
    await ex.insert(paymentMethods).values(rows).onConflictDoNothing();
  }

  async minimumOverride(ex: Executor, customerId: number): Promise<string | null> {
    const [row] = await ex
      .select({ minimum: billingAccountSettings.minimumTopup })
      .from(billingAccountSettings)
      .where(eq(billingAccountSettings.customerId, customerId));
    return row?.minimum ?? null;
  }

  async setMinimumOverride(ex: Executor, customerId: number, minimum: string | null): Promise<void> {
    await ex
      .insert(billingAccountSettings)
      .values({ customerId, minimumTopup: minimum })
      .onConflictDoUpdate({ target: billingAccountSettings.customerId, set: { minimumTopup: minimum, updatedAt: sql`now()` } });
  }

  async customerContact(ex: Executor, customerId: number): Promise<{ email: string; name: string } | undefined> {
    const [row] = await ex
      .select({ email: customers.email, first: customers.firstName, last: customers.lastName })
      .from(customers)
      .where(eq(customers.id, customerId));
    return row ? { email: row.email, name: `${row.first} ${row.last}`.trim() } : undefined;
  }

  async insertInvoice(ex: Executor, row: NewTopupInvoice): Promise<TopupInvoiceRow> {
    const [inserted] = await ex.insert(topupInvoices).values(row).returning();
    return inserted!;
  }

  async setPaymentDetails(
    ex: Executor,
    id: string,
    details: { paymentUrl: string; redirectUrl: string | null; vaNumber: string | null; qrString: string | null; gatewayReference: string | null },
  ): Promise<TopupInvoiceRow> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ ...details, updatedAt: sql`now()` })
      .where(eq(topupInvoices.id, id))
      .returning();
    return row!;
  }

  /** Unknown, malformed (not a UUID) and other customers' ids all give undefined. */
  async findInvoice(ex: Executor, id: string, customerId?: number, forUpdate = false): Promise<TopupInvoiceRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const where = customerId === undefined ? eq(topupInvoices.id, id) : and(eq(topupInvoices.id, id), eq(topupInvoices.customerId, customerId));
    const q = ex.select().from(topupInvoices).where(where);
    const [row] = forUpdate ? await q.for('update') : await q;
    return row;
  }

  async listInvoices(ex: Executor, filter: InvoiceFilter, p: PageRequest): Promise<Page<TopupInvoiceRow>> {
    const conditions: SQL[] = [];
    if (filter.customerId !== undefined) conditions.push(eq(topupInvoices.customerId, filter.customerId));
    if (filter.status !== undefined) conditions.push(eq(topupInvoices.status, filter.status));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const items = await ex
      .select()
      .from(topupInvoices)
      .where(where)
      .orderBy(desc(topupInvoices.createdAt), desc(topupInvoices.id))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(topupInvoices).where(where);
    return { items, total: total?.n ?? 0 };
  }

  allInvoicesOf(ex: Executor, customerId: number, max: number) {
    return ex
      .select()
      .from(topupInvoices)
      .where(eq(topupInvoices.customerId, customerId))
      .orderBy(desc(topupInvoices.createdAt), desc(topupInvoices.id))
      .limit(max);
  }

  /**
   * The one transition to Paid: conditional, so of any number of concurrent verified success
   * callbacks exactly one gets the row back. A late verified success for an Expired or Failed
   * invoice is still accepted: the gateway took the money.
   */
  async markPaid(ex: Executor, id: string, at: Date): Promise<TopupInvoiceRow | undefined> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ status: 'Paid', paidAt: at, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.id, id), sql`${topupInvoices.status} in ('Pending', 'Expired', 'Failed')`))
      .returning();
    return row;
  }

  async markFailed(ex: Executor, id: string, at: Date): Promise<TopupInvoiceRow | undefined> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ status: 'Failed', failedAt: at, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.id, id), eq(topupInvoices.status, 'Pending')))
      .returning();
    return row;
  }

  async markExpired(ex: Executor, id: string, at: Date): Promise<TopupInvoiceRow | undefined> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ status: 'Expired', expiredAt: at, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.id, id), eq(topupInvoices.status, 'Pending')))
      .returning();
    return row;
  }

  async markCredited(ex: Executor, id: string, at: Date): Promise<void> {
    await ex.update(topupInvoices).set({ creditedAt: at, updatedAt: sql`now()` }).where(eq(topupInvoices.id, id));
  }

  /** Pending invoices whose time is up → Expired; returns how many. */
  async expireDue(ex: Executor, now: Date): Promise<number> {
    const rows = await ex
      .update(topupInvoices)
      .set({ status: 'Expired', expiredAt: now, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.status, 'Pending'), lte(topupInvoices.expiresAt, now)))
      .returning({ id: topupInvoices.id });
    return rows.length;
  }

  /** Paid invoices not credited since before `paidBefore` (their credit task gave up or was lost). */
  async listUncredited(ex: Executor, paidBefore: Date, max: number): Promise<string[]> {
    const rows = await ex
      .select({ id: topupInvoices.id })
      .from(topupInvoices)
      .where(and(eq(topupInvoices.status, 'Paid'), isNull(topupInvoices.creditedAt), lte(topupInvoices.paidAt, paidBefore)))
      .orderBy(asc(topupInvoices.paidAt))
      .limit(max);
    return rows.map((r) => r.id);
  }

  async recordCallback(ex: Executor, row: NewPaymentCallback): Promise<void> {
    await ex.insert(paymentCallbacks).values(row);
  }

  /** Deletes recorded callbacks received before the cut-off of their kind (verified ones are kept longer). */
  async pruneCallbacks(ex: Executor, verifiedBefore: Date, unverifiedBefore: Date): Promise<number> {
    const rows = await ex
      .delete(paymentCallbacks)
      .where(
        sql`(${paymentCallbacks.signatureValid} and ${paymentCallbacks.receivedAt} < ${verifiedBefore.toISOString()}::timestamptz)
            or (not ${paymentCallbacks.signatureValid} and ${paymentCallbacks.receivedAt} < ${unverifiedBefore.toISOString()}::timestamptz)`,
      )
      .returning({ id: paymentCallbacks.id });
    return rows.length;
  }

  async listCallbacks(ex: Executor, filter: CallbackFilter, p: PageRequest): Promise<Page<PaymentCallbackRow>> {
    const conditions: SQL[] = [];
    if (filter.invoiceId !== undefined) conditions.push(eq(paymentCallbacks.claimedInvoiceId, filter.invoiceId));
    if (filter.gatewayName !== undefined) conditions.push(eq(paymentCallbacks.gatewayName, filter.gatewayName));
    if (filter.outcome !== undefined) conditions.push(eq(paymentCallbacks.outcome, filter.outcome));
    if (filter.signatureValid !== undefined) conditions.push(eq(paymentCallbacks.signatureValid, filter.signatureValid));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const items = await ex
      .select()
      .from(paymentCallbacks)
      .where(where)
      .orderBy(desc(paymentCallbacks.receivedAt), desc(paymentCallbacks.id))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(paymentCallbacks).where(where);
    return { items, total: total?.n ?? 0 };
  }
}

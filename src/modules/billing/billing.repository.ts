import { and, asc, count, desc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { billingAccountSettings, paymentCallbacks, paymentMethods, topupCreditFailures, topupInvoices, type BonusStatus, type CallbackOutcome } from './billing.tables.js';
import { lockScoped } from '../../platform/db/advisory-locks.js';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type TopupInvoiceRow = typeof topupInvoices.$inferSelect;
export type NewTopupInvoice = typeof topupInvoices.$inferInsert;
export type NewPaymentCallback = typeof paymentCallbacks.$inferInsert;

export type PaymentCallbackRow = typeof paymentCallbacks.$inferSelect;
export type CreditFailureRow = typeof topupCreditFailures.$inferSelect;
export interface TopupCreditFailureWithInvoice {
  failure: CreditFailureRow;
  invoice: TopupInvoiceRow;
}

/** A Failed or Expired invoice gives its coupon use back (reserved → released). */
const releaseBonus = sql`case when ${topupInvoices.bonusStatus} = 'reserved' then 'released' else ${topupInvoices.bonusStatus} end`;

/** A failed or expired invoice, with whether it just gave its coupon use back. */
export interface SettledInvoice {
  id: string;
  couponId: number | null;
  bonusStatus: BonusStatus;
}

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

  async insertTopup(ex: Executor, row: NewTopupInvoice): Promise<TopupInvoiceRow> {
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

  async listTopups(ex: Executor, filter: InvoiceFilter, p: PageRequest): Promise<Page<TopupInvoiceRow>> {
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
   * The one transition to Paid, conditional, so of any number of concurrent verified success
   * callbacks exactly one moves it; a late verified success for an Expired or Failed invoice is
   * still accepted, since the gateway took the money.
   * A verified success in ONE statement (atomic without a transaction): Pending/Expired/Failed →
   * Paid, only if the invoice was made with this gateway for this amount; with it the credit job
   * (`enqueue`: an INSERT of jobs from a SELECT of their payloads) and the reconciliation record.
   * Its answer is the credit job's id; undefined when nothing moved (already Paid, unknown, or a
   * mismatch: the caller reads the invoice to say which), and then nothing was written.
   */
  async markPaidWithJob(
    ex: Executor,
    invoice: { id: string; gatewayName: string; totalAmount: string; at: Date },
    record: NewPaymentCallback,
    enqueue: (payloads: SQL) => SQL,
  ): Promise<{ jobId: string | null } | undefined> {
    if (!UUID.test(invoice.id) || !/^\d{1,16}(\.\d{1,2})?$/.test(invoice.totalAmount)) return undefined;
    const [row] = await queryRows<{ paid: number; job_id: string | null }>(
      ex,
      sql`with paid as (
            update topup_invoices set status = 'Paid', paid_at = ${invoice.at.toISOString()}::timestamptz, updated_at = now()
            where id = ${invoice.id}::uuid and status in ('Pending', 'Expired', 'Failed')
              and gateway_name = ${invoice.gatewayName} and total_amount = ${invoice.totalAmount}::numeric
            returning id
          ), job as (
            ${enqueue(sql`select jsonb_build_object('invoiceId', id::text) from paid`)}
          ), rec as (
            insert into payment_callbacks (gateway_name, claimed_invoice_id, raw_body, headers, remote_ip, signature_valid, outcome, response_status)
            select ${record.gatewayName}, ${record.claimedInvoiceId ?? null}, ${record.rawBody}, ${JSON.stringify(record.headers)}::jsonb, ${record.remoteIp ?? null},
                   ${record.signatureValid ?? false}, ${record.outcome}, ${record.responseStatus}
            from paid
            returning id
          )
          select (select count(*) from paid)::int as paid, (select id::text from job limit 1) as job_id, (select count(*) from rec)::int as recorded`,
    );
    return row && row.paid > 0 ? { jobId: row.job_id } : undefined;
  }

  /** Locks these invoices (in id order, so two batches never wait on each other in a cycle) and returns them. */
  async lockInvoices(tx: Executor, ids: string[]): Promise<TopupInvoiceRow[]> {
    const valid = [...new Set(ids.filter((id) => UUID.test(id)))].sort();
    if (valid.length === 0) return [];
    if (valid.length === 1) return (await tx.select().from(topupInvoices).where(eq(topupInvoices.id, valid[0]!)).for('update'));
    return tx
      .select()
      .from(topupInvoices)
      .where(sql`${topupInvoices.id} in (select id::uuid from json_array_elements_text(${JSON.stringify(valid)}::json) as j(id))`)
      .orderBy(asc(topupInvoices.id))
      .for('update');
  }

  /** Marks several invoices credited, each with its own bonus outcome, in one statement. */
  async markCreditedMany(ex: Executor, rows: { id: string; creditedBonus: string; bonusStatus: BonusStatus }[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    if (rows.length === 1) return this.markCredited(ex, rows[0]!.id, at, rows[0]!);
    await ex.execute(
      sql`update topup_invoices t set credited_at = ${at.toISOString()}::timestamptz, credited_bonus = v.credited_bonus, bonus_status = v.bonus_status, updated_at = now()
          from json_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, credited_bonus: r.creditedBonus, bonus_status: r.bonusStatus })))}::json)
            as v(id uuid, credited_bonus numeric, bonus_status text)
          where t.id = v.id`,
    );
  }

  /** The e-mail and name of several customers. */
  async customerContacts(ex: Executor, customerIds: number[]): Promise<Map<number, { email: string; name: string }>> {
    const ids = [...new Set(customerIds)];
    if (ids.length === 0) return new Map();
    const rows = await ex
      .select({ id: customers.id, email: customers.email, first: customers.firstName, last: customers.lastName })
      .from(customers)
      .where(ids.length === 1 ? eq(customers.id, ids[0]!) : sql`${customers.id} in (select id::int from json_array_elements_text(${JSON.stringify(ids)}::json) as j(id))`);
    return new Map(rows.map((r) => [r.id, { email: r.email, name: `${r.first} ${r.last}`.trim() }]));
  }

  async markFailed(ex: Executor, id: string, at: Date): Promise<TopupInvoiceRow | undefined> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ status: 'Failed', failedAt: at, bonusStatus: releaseBonus, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.id, id), eq(topupInvoices.status, 'Pending')))
      .returning();
    return row;
  }

  async markExpired(ex: Executor, id: string, at: Date): Promise<TopupInvoiceRow | undefined> {
    const [row] = await ex
      .update(topupInvoices)
      .set({ status: 'Expired', expiredAt: at, bonusStatus: releaseBonus, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.id, id), eq(topupInvoices.status, 'Pending')))
      .returning();
    return row;
  }

  async markCredited(ex: Executor, id: string, at: Date, bonus: { creditedBonus: string; bonusStatus: BonusStatus }): Promise<void> {
    await ex
      .update(topupInvoices)
      .set({ creditedAt: at, creditedBonus: bonus.creditedBonus, bonusStatus: bonus.bonusStatus, updatedAt: sql`now()` })
      .where(eq(topupInvoices.id, id));
  }

  /** Pending invoices whose time is up → Expired (their coupon uses released); returns them. */
  async expireDue(ex: Executor, now: Date): Promise<SettledInvoice[]> {
    return ex
      .update(topupInvoices)
      .set({ status: 'Expired', expiredAt: now, bonusStatus: releaseBonus, updatedAt: sql`now()` })
      .where(and(eq(topupInvoices.status, 'Pending'), lte(topupInvoices.expiresAt, now)))
      .returning({ id: topupInvoices.id, couponId: topupInvoices.couponId, bonusStatus: topupInvoices.bonusStatus });
  }

  /** Until the transaction ends, the customer's other top-up checks wait (an advisory lock). */
  async lockTopupsOf(tx: Executor, customerId: number): Promise<void> {
    await lockScoped(tx, 'customerDeposits', customerId);
  }

  /**
   * What the customer's open top-ups (Pending, or Paid and not yet credited) will add to the
   * wallet: real money, and real money plus their reserved bonuses.
   */
  async outstandingOf(ex: Executor, customerId: number): Promise<{ actual: string; current: string }> {
    const [row] = await ex
      .select({
        actual: sql<string>`coalesce(sum(${topupInvoices.amount}), 0)::text`,
        current: sql<string>`coalesce(sum(${topupInvoices.amount} + case when ${topupInvoices.bonusStatus} = 'reserved' then ${topupInvoices.bonusAmount} else 0 end), 0)::text`,
      })
      .from(topupInvoices)
      .where(
        and(
          eq(topupInvoices.customerId, customerId),
          sql`(${topupInvoices.status} = 'Pending' or (${topupInvoices.status} = 'Paid' and ${topupInvoices.creditedAt} is null))`,
        ),
      );
    return { actual: row?.actual ?? '0', current: row?.current ?? '0' };
  }

  /**
   * Records a failed credit run (its own transaction: the run's rolled back). A failure becomes
   * permanent when the caller says so or after `maxAttempts` runs; a new failure reopens a
   * resolved record.
   */
  async recordCreditFailure(
    ex: Executor,
    row: { invoiceId: string; customerId: number; permanent: boolean; errorCode: string; lastError: string; at: Date },
    maxAttempts: number,
  ): Promise<CreditFailureRow> {
    const [saved] = await ex
      .insert(topupCreditFailures)
      .values({
        invoiceId: row.invoiceId,
        customerId: row.customerId,
        attempts: 1,
        permanent: row.permanent || maxAttempts <= 1,
        errorCode: row.errorCode,
        lastError: row.lastError,
        firstFailedAt: row.at,
        lastFailedAt: row.at,
      })
      .onConflictDoUpdate({
        target: topupCreditFailures.invoiceId,
        set: {
          attempts: sql`${topupCreditFailures.attempts} + 1`,
          permanent: sql`${row.permanent} or ${topupCreditFailures.attempts} + 1 >= ${maxAttempts}`,
          errorCode: row.errorCode,
          lastError: row.lastError,
          lastFailedAt: row.at,
          resolvedAt: null,
        },
      })
      .returning();
    return saved!;
  }

  /** The open credit failures of these invoices are resolved (they were credited). */
  async resolveCreditFailures(ex: Executor, invoiceIds: string[], at: Date): Promise<void> {
    if (invoiceIds.length === 0) return;
    await ex
      .update(topupCreditFailures)
      .set({ resolvedAt: at })
      .where(
        and(
          invoiceIds.length === 1
            ? eq(topupCreditFailures.invoiceId, invoiceIds[0]!)
            : sql`${topupCreditFailures.invoiceId} in (select id::uuid from json_array_elements_text(${JSON.stringify(invoiceIds)}::json) as j(id))`,
          isNull(topupCreditFailures.resolvedAt),
        ),
      );
  }

  /** Staff retry: the failure is no longer permanent and its attempts start again. */
  async reopenCreditFailure(ex: Executor, invoiceId: string): Promise<CreditFailureRow | undefined> {
    const [row] = await ex
      .update(topupCreditFailures)
      .set({ permanent: false, attempts: 0 })
      .where(and(eq(topupCreditFailures.invoiceId, invoiceId), isNull(topupCreditFailures.resolvedAt)))
      .returning();
    return row;
  }

  async listCreditFailures(ex: Executor, filter: { resolved: boolean }, p: PageRequest): Promise<Page<TopupCreditFailureWithInvoice>> {
    const where = filter.resolved ? sql`${topupCreditFailures.resolvedAt} is not null` : isNull(topupCreditFailures.resolvedAt);
    const items = await ex
      .select({ failure: topupCreditFailures, invoice: topupInvoices })
      .from(topupCreditFailures)
      .innerJoin(topupInvoices, eq(topupInvoices.id, topupCreditFailures.invoiceId))
      .where(where)
      .orderBy(desc(topupCreditFailures.lastFailedAt), desc(topupCreditFailures.invoiceId))
      .limit(p.limit)
      .offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(topupCreditFailures).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async countOpenCreditFailures(ex: Executor): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(topupCreditFailures).where(isNull(topupCreditFailures.resolvedAt));
    return row?.n ?? 0;
  }

  /** Paid invoices not credited since before `paidBefore` (their credit task gave up or was lost). */
  async listUncredited(ex: Executor, paidBefore: Date, max: number): Promise<string[]> {
    const rows = await ex
      .select({ id: topupInvoices.id })
      .from(topupInvoices)
      .where(
        and(
          eq(topupInvoices.status, 'Paid'),
          isNull(topupInvoices.creditedAt),
          lte(topupInvoices.paidAt, paidBefore),
          // permanent failures wait for staff (GET /api/backoffice/billing/credit-failures)
          sql`not exists (select 1 from ${topupCreditFailures} f where f.invoice_id = "topup_invoices"."id" and f.permanent and f.resolved_at is null)`,
        ),
      )
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

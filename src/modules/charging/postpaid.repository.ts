import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { offsetOf } from '../../platform/http/pagination.js';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export interface PostpaidInvoiceRow {
  id: string;
  number: string;
  customer_id: number;
  customer_email?: string;
  period_start: Date;
  period_end: Date;
  status: 'UNPAID' | 'OVERDUE' | 'PAID';
  subtotal: string;
  amount_paid: string;
  currency: string;
  issued_at: Date;
  due_at: Date;
  overdue_at: Date | null;
  paid_at: Date | null;
  paid_note: string | null;
}

export interface LineRow {
  id?: number;
  invoice_id: string;
  meter_id: number;
  resource_type: string;
  resource_id: string;
  description: string;
  period_start: Date;
  period_end: Date;
  hours: number;
  usage_amount: string;
  amount?: string;
}

export interface InvoiceFilter {
  customerId?: number;
  status?: string;
  period?: string;
  search?: string;
}

const invoiceColumns = sql`i.id::text as id, i.number, i.customer_id, c.email as customer_email, i.period_start, i.period_end, i.status,
  i.subtotal::text as subtotal, i.amount_paid::text as amount_paid, i.currency, i.issued_at, i.due_at, i.overdue_at, i.paid_at, i.paid_note`;

function toDates(row: PostpaidInvoiceRow): PostpaidInvoiceRow {
  const r = row as unknown as Record<string, unknown>;
  for (const k of ['period_start', 'period_end', 'issued_at', 'due_at', 'overdue_at', 'paid_at']) {
    const v = r[k];
    if (v !== null && v !== undefined && !(v instanceof Date)) r[k] = new Date(v as string);
  }
  return row;
}

export class PostpaidRepository {
  /**
   * Customers with postpaid usage in the period and no invoice for it yet, after `cursor` (only
   * `onlyCustomer` when given). A customer the hourly charge set aside before the period's end waits:
   * their month is not fully charged (they are invoiced when their charge is resolved).
   */
  async uninvoicedCustomers(ex: Executor, start: Date, end: Date, cursor: number, limit: number, onlyCustomer?: number): Promise<number[]> {
    const rows = await queryRows<{ customer_id: number }>(
      ex,
      sql`select distinct uc.customer_id from usage_charges uc
          where uc.postpaid and uc.hour >= ${ts(start)} and uc.hour < ${ts(end)} and uc.customer_id > ${cursor}
            ${onlyCustomer === undefined ? sql`` : sql`and uc.customer_id = ${onlyCustomer}`}
            and not exists (select 1 from postpaid_invoices i where i.customer_id = uc.customer_id and i.period_start = ${ts(start)})
            and not exists (select 1 from charge_failures f where f.customer_id = uc.customer_id and f.resolved_at is null and f.first_hour < ${ts(end)})
          order by uc.customer_id limit ${limit}`,
    );
    return rows.map((r) => r.customer_id);
  }

  async insertInvoices(tx: Executor, ids: number[], start: Date, end: Date, now: Date, due: Date, currency: string) {
    const month = start.toISOString().slice(0, 7).replace('-', '');
    return queryRows<{ id: string; customer_id: number; subtotal: string; number: string }>(
      tx,
      sql`insert into postpaid_invoices (number, customer_id, period_start, period_end, subtotal, currency, issued_at, due_at)
          select 'PP-' || ${month} || '-' || lpad(uc.customer_id::text, 7, '0'), uc.customer_id, ${ts(start)}, ${ts(end)}, sum(uc.amount), ${currency}, ${ts(now)}, ${ts(due)}
          from usage_charges uc
          where uc.postpaid and uc.hour >= ${ts(start)} and uc.hour < ${ts(end)} and uc.customer_id = any(${`{${ids.join(',')}}`}::int[])
          group by uc.customer_id
          having sum(uc.amount) > 0
          on conflict do nothing
          returning id::text as id, customer_id, subtotal::text as subtotal, number`,
    );
  }

  /** Usage of each meter in the invoice's postpaid hours: the lines before rounding. */
  async usageLines(tx: Executor, invoiceIds: string[]): Promise<LineRow[]> {
    const rows = await queryRows<LineRow>(
      tx,
      sql`select i.id::text as invoice_id, m.id as meter_id, m.resource_type, m.resource_id, m.description,
            min(greatest(u.hour, m.started_at)) as period_start,
            max(least(u.hour + interval '1 hour', coalesce(m.stopped_at, u.hour + interval '1 hour'))) as period_end,
            count(*)::int as hours, sum(u.amount)::text as usage_amount
          from postpaid_invoices i
          join meters m on m.customer_id = i.customer_id
          join usage_records u on u.meter_id = m.id and u.hour >= i.period_start and u.hour < i.period_end
          join usage_charges uc on uc.customer_id = i.customer_id and uc.hour = u.hour and uc.postpaid
          where i.id = any(${`{${invoiceIds.join(',')}}`}::uuid[])
          group by i.id, m.id
          order by i.id, m.id`,
    );
    return rows.map((r) => ({ ...r, meter_id: Number(r.meter_id), period_start: new Date(r.period_start), period_end: new Date(r.period_end) }));
  }

  async insertLines(tx: Executor, lines: (LineRow & { amount: string })[]): Promise<void> {
    if (lines.length === 0) return;
    const values = lines.map(
      (l) =>
        sql`(${l.invoice_id}::uuid, ${l.meter_id}, ${l.resource_type}, ${l.resource_id}, ${l.description}, ${ts(l.period_start)}, ${ts(l.period_end)}, ${l.hours}, ${l.usage_amount}::numeric, ${l.amount}::numeric)`,
    );
    await tx.execute(sql`insert into postpaid_invoice_lines (invoice_id, meter_id, resource_type, resource_id, description, period_start, period_end, hours, usage_amount, amount)
      values ${sql.join(values, sql`, `)}`);
  }

  async find(ex: Executor, id: string, customerId?: number, lock = false): Promise<PostpaidInvoiceRow | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    const [row] = await queryRows<PostpaidInvoiceRow>(
      ex,
      sql`select ${invoiceColumns} from postpaid_invoices i join customers c on c.id = i.customer_id
          where i.id = ${id}::uuid ${customerId === undefined ? sql`` : sql`and i.customer_id = ${customerId}`}
          ${lock ? sql`for update of i` : sql``}`,
    );
    return row && toDates(row);
  }

  async lines(ex: Executor, invoiceId: string): Promise<LineRow[]> {
    const rows = await queryRows<LineRow>(
      ex,
      sql`select id, invoice_id::text as invoice_id, meter_id, resource_type, resource_id, description, period_start, period_end, hours,
            usage_amount::text as usage_amount, amount::text as amount
          from postpaid_invoice_lines where invoice_id = ${invoiceId}::uuid order by id`,
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), meter_id: Number(r.meter_id), period_start: new Date(r.period_start), period_end: new Date(r.period_end) }));
  }

  async list(ex: Executor, f: InvoiceFilter, p: PageRequest): Promise<{ items: PostpaidInvoiceRow[]; total: number }> {
    const where = sql.join(
      [
        sql`true`,
        f.customerId !== undefined ? sql`i.customer_id = ${f.customerId}` : undefined,
        f.status === 'UNPAID_OR_OVERDUE' ? sql`i.status in ('UNPAID', 'OVERDUE')` : f.status ? sql`i.status = ${f.status}` : undefined,
        f.period ? sql`i.period_start = ${`${f.period}-01T00:00:00Z`}::timestamptz` : undefined,
        f.search ? sql`(i.number ilike ${`%${f.search}%`} or c.email ilike ${`%${f.search}%`})` : undefined,
      ].filter((x) => x !== undefined),
      sql` and `,
    );
    const items = await queryRows<PostpaidInvoiceRow>(
      ex,
      sql`select ${invoiceColumns} from postpaid_invoices i join customers c on c.id = i.customer_id where ${where}
          order by i.issued_at desc, i.number desc limit ${p.limit} offset ${offsetOf(p)}`,
    );
    const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from postpaid_invoices i join customers c on c.id = i.customer_id where ${where}`);
    return { items: items.map((r) => toDates(r)), total: total?.n ?? 0 };
  }

  async unpaidTotals(ex: Executor, customerId: number) {
    const [row] = await queryRows<{ due: string | null; unpaid: number; overdue: number; next_due: string | Date | null }>(
      ex,
      sql`select sum(subtotal - amount_paid)::text as due, count(*) filter (where status = 'UNPAID')::int as unpaid,
            count(*) filter (where status = 'OVERDUE')::int as overdue, min(due_at) as next_due
          from postpaid_invoices where customer_id = ${customerId} and status in ('UNPAID', 'OVERDUE')`,
    );
    return row!;
  }

  async accruedSince(ex: Executor, customerId: number, from: Date): Promise<string> {
    const [row] = await queryRows<{ s: string | null }>(
      ex,
      sql`select sum(amount)::text as s from usage_charges where customer_id = ${customerId} and postpaid and hour >= ${ts(from)}`,
    );
    return row?.s ?? '0';
  }

  async addPayment(tx: Executor, invoiceId: string, amount: string, now: Date): Promise<PostpaidInvoiceRow> {
    const [row] = await queryRows<PostpaidInvoiceRow>(
      tx,
      sql`update postpaid_invoices set amount_paid = amount_paid + ${amount}::numeric,
            status = case when amount_paid + ${amount}::numeric >= subtotal then 'PAID' else status end,
            paid_at = case when amount_paid + ${amount}::numeric >= subtotal then ${ts(now)} else paid_at end
          where id = ${invoiceId}::uuid
          returning id::text as id, number, customer_id, period_start, period_end, status, subtotal::text as subtotal, amount_paid::text as amount_paid,
            currency, issued_at, due_at, overdue_at, paid_at, paid_note`,
    );
    return toDates(row!);
  }

  async markVerified(tx: Executor, invoiceId: string, note: string, adminId: number, now: Date): Promise<void> {
    await tx.execute(sql`update postpaid_invoices set status = 'PAID', paid_at = ${ts(now)}, paid_note = ${note}, verified_by_admin_id = ${adminId}
      where id = ${invoiceId}::uuid`);
  }

  async insertPayment(tx: Executor, p: { customerId: number; invoiceIds: string[]; total: string; walletAmount: string; remainder: string; status: string; now: Date }): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`insert into postpaid_payments (customer_id, invoice_ids, total, wallet_amount, remainder, status, created_at, paid_at)
          values (${p.customerId}, ${`{${p.invoiceIds.join(',')}}`}::uuid[], ${p.total}::numeric, ${p.walletAmount}::numeric, ${p.remainder}::numeric,
            ${p.status}, ${ts(p.now)}, ${p.status === 'PAID' ? ts(p.now) : null})
          returning id::text as id`,
    );
    return row!.id;
  }

  async linkPayment(ex: Executor, paymentId: string, topupInvoiceId: string | null, status?: string): Promise<void> {
    await ex.execute(sql`update postpaid_payments set topup_invoice_id = ${topupInvoiceId}::uuid ${status ? sql`, status = ${status}` : sql``} where id = ${paymentId}::uuid`);
  }

  /** The PENDING postpaid payments (locked) whose gateway part is one of these top-up invoices, by top-up invoice id. */
  async pendingPaymentsOfTopups(tx: Executor, topupInvoiceIds: string[]) {
    const found = new Map<string, { id: string; customerId: number; invoiceIds: string[] }>();
    if (topupInvoiceIds.length === 0) return found;
    const rows = await queryRows<{ id: string; topup_invoice_id: string; customer_id: number; invoice_ids: string[] | string }>(
      tx,
      sql`select id::text as id, topup_invoice_id::text as topup_invoice_id, customer_id, invoice_ids::text[] as invoice_ids from postpaid_payments
          where topup_invoice_id in (select id::uuid from json_array_elements_text(${JSON.stringify(topupInvoiceIds)}::json) as j(id))
            and status = 'PENDING'
          order by id for update`,
    );
    for (const row of rows) {
      const ids = Array.isArray(row.invoice_ids) ? row.invoice_ids : String(row.invoice_ids).replace(/[{}]/g, '').split(',').filter(Boolean);
      found.set(row.topup_invoice_id, { id: row.id, customerId: row.customer_id, invoiceIds: ids });
    }
    return found;
  }

  /** How a PENDING payment ended: PAID (settled its invoices), PARTIAL (settled part of them), CANCELLED (settled nothing). */
  async endPayment(tx: Executor, paymentId: string, status: 'PAID' | 'PARTIAL' | 'CANCELLED', now: Date): Promise<void> {
    await tx.execute(sql`update postpaid_payments set status = ${status}, paid_at = ${status === 'CANCELLED' ? null : ts(now)}
      where id = ${paymentId}::uuid and status = 'PENDING'`);
  }

  /**
   * The PENDING payments (locked) that cover any of these invoices, with the state of their gateway
   * top-up (null while the request that made it has not linked it yet).
   */
  async openPaymentsOf(tx: Executor, customerId: number, invoiceIds: string[], lock: boolean) {
    const rows = await queryRows<{ id: string; invoice_ids: string[] | string; topup_invoice_id: string | null; topup_status: string | null; created_at: Date | string; total: string; wallet_amount: string; remainder: string }>(
      tx,
      sql`select p.id::text as id, p.invoice_ids::text[] as invoice_ids, p.topup_invoice_id::text as topup_invoice_id, t.status as topup_status,
            p.created_at, p.total::text as total, p.wallet_amount::text as wallet_amount, p.remainder::text as remainder
          from postpaid_payments p left join topup_invoices t on t.id = p.topup_invoice_id
          where p.customer_id = ${customerId} and p.status = 'PENDING' and p.invoice_ids && ${`{${invoiceIds.join(',')}}`}::uuid[]
          order by p.id ${lock ? sql`for update of p` : sql``}`,
    );
    return rows.map((r) => ({
      id: r.id,
      invoiceIds: (Array.isArray(r.invoice_ids) ? r.invoice_ids : String(r.invoice_ids).replace(/[{}]/g, '').split(',').filter(Boolean)).map((x) => x.toLowerCase()).sort(),
      topupInvoiceId: r.topup_invoice_id,
      topupStatus: r.topup_status,
      createdAt: new Date(r.created_at),
      total: r.total,
      walletAmount: r.wallet_amount,
      remainder: r.remainder,
    }));
  }

  // ---- overdue ----

  async markOverdue(tx: Executor, now: Date, limit: number) {
    return queryRows<{ id: string; number: string; customer_id: number; email: string; first_name: string; due: string; due_at: Date }>(
      tx,
      sql`update postpaid_invoices i set status = 'OVERDUE', overdue_at = ${ts(now)}
          from customers c
          where c.id = i.customer_id and i.id in (
            select id from postpaid_invoices where status = 'UNPAID' and due_at <= ${ts(now)} order by due_at limit ${limit} for update skip locked)
          returning i.id::text as id, i.number, i.customer_id, c.email, c.first_name, (i.subtotal - i.amount_paid)::text as due, i.due_at`,
    );
  }

  async dueSoon(tx: Executor, now: Date, before: Date, limit: number) {
    return queryRows<{ id: string; number: string; customer_id: number; email: string; first_name: string; due: string; due_at: Date }>(
      tx,
      sql`update postpaid_invoices i set reminder_sent_at = ${ts(now)}
          from customers c
          where c.id = i.customer_id and c.allow_billing_reminder and i.id in (
            select id from postpaid_invoices where status = 'UNPAID' and reminder_sent_at is null and due_at <= ${ts(before)} and due_at > ${ts(now)}
            order by due_at limit ${limit} for update skip locked)
          returning i.id::text as id, i.number, i.customer_id, c.email, c.first_name, (i.subtotal - i.amount_paid)::text as due, i.due_at`,
    );
  }

  /** Postpaid accounts with an OVERDUE invoice past the grace: suspended (reason POSTPAID_OVERDUE). */
  async suspendOverdue(tx: Executor, now: Date, graceDays: number, reason: string, limit: number) {
    return queryRows<{ id: number; email: string; first_name: string }>(
      tx,
      sql`update customers c set suspended_at = ${ts(now)}, suspend_reason = ${reason}
          where c.id in (
            select c2.id from customers c2
            where c2.suspended_at is null
              and (c2.do_not_suspend_until is null or c2.do_not_suspend_until <= ${ts(now)})
              and exists (select 1 from postpaid_invoices i where i.customer_id = c2.id and i.status = 'OVERDUE'
                          and i.due_at + make_interval(days => ${graceDays}) <= ${ts(now)})
            order by c2.id limit ${limit} for update skip locked)
          returning c.id, c.email, c.first_name`,
    );
  }

  /** Lifts an overdue suspension once no OVERDUE invoice past the grace is left. */
  async resumeSettled(tx: Executor, customerId: number, now: Date, graceDays: number, reason: string): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`update customers c set suspended_at = null, suspend_reason = null
          where c.id = ${customerId} and c.suspend_reason = ${reason}
            and not exists (select 1 from postpaid_invoices i where i.customer_id = c.id and i.status = 'OVERDUE'
                            and i.due_at + make_interval(days => ${graceDays}) <= ${ts(now)})
          returning c.id`,
    );
    return rows.length > 0;
  }

  async contact(ex: Executor, customerId: number) {
    const [row] = await queryRows<{ email: string; first_name: string; last_name: string }>(ex, sql`select email, first_name, last_name from customers where id = ${customerId}`);
    return row;
  }
}

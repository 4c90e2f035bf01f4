import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { isMonth } from '../../platform/http/instant.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { dec, moneyJson, moneyString } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import { displayDay, displayMonth } from '../../platform/date-display.js';
import { renderTablePdf, type DocumentParties } from '../../platform/pdf/pdf.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { ChargingService } from './charging.service.js';
import type { InvoiceFilter, LineRow, PostpaidInvoiceRow, PostpaidRepository } from './postpaid.repository.js';
import { distribute } from './invoice-lines.js';
import { SUSPEND_OVERDUE } from './suspension.repository.js';
import { suspendedNotice, type ChargingNotice, type SuspensionService } from './suspension.service.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';

const BATCH = 500;

/** Top-up invoices as PDFs (billing's TopupsService); undefined when the id is not one. */
export interface TopupInvoicePdfs {
  invoicePdf(invoiceId: string, customerId?: number): Promise<{ filename: string; pdf: Buffer } | undefined>;
}
const REMINDER_DAYS = 3;

/**
 * Postpaid (docs/api.md, "Postpaid invoices"; docs/decisions.md §5): usage accrues hourly like prepaid (usage_charges with
 * postpaid = true); on the 1st one cumulative invoice per customer for the month before, with a
 * line per resource and period; UNPAID → OVERDUE after the due date; the account is suspended
 * when an invoice stays OVERDUE past the grace in settings. Payment: the wallet first, the
 * remainder through a gateway top-up (PostpaidPaymentsService).
 */
export class PostpaidService {
  readonly issueJob = defineJob<{ period?: string }>({
    name: 'charging.postpaid-invoices',
    queue: 'charging',
    schedule: '30 0 1 * *',
    description: 'Issues the monthly postpaid invoices (the month before; payload { period: "YYYY-MM" } for another month)',
    handler: async (p, ctx) => {
      const n = await this.issueMonthly(p.period);
      ctx.log.info({ invoices: n }, 'postpaid invoices issued');
    },
  });

  readonly overdueJob = defineJob<object>({
    name: 'charging.postpaid-overdue',
    queue: 'charging-suspension',
    schedule: '20 * * * *',
    description: 'Reminds of postpaid invoices due soon, marks unpaid ones past their due date OVERDUE, suspends accounts overdue past the grace',
    handler: async (_p, ctx) => {
      const r = await this.overdueSweep();
      if (r.overdue + r.reminders + r.suspended > 0) ctx.log.info(r, 'postpaid overdue sweep');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: PostpaidRepository,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly charging: ChargingService,
    private readonly suspension: SuspensionService,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly currency: string,
    private readonly webhooks: WebhookEmitter,
    private readonly parties: DocumentParties,
    /** the billing module's top-up invoices, so one download serves every invoice */
    private readonly topupInvoices: TopupInvoicePdfs,
  ) {}

  // ---- issuing ----

  async issueMonthly(period?: string): Promise<number> {
    const now = this.clock.now();
    let start: Date;
    if (period !== undefined) {
      if (!isMonth(period)) throw new ValidationError('period must be YYYY-MM, a year between 1970 and 9999');
      start = new Date(`${period}-01T00:00:00Z`);
    } else start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    if (end.getTime() > now.getTime()) throw new BadRequestError('PERIOD_NOT_OVER', 'The month is not over yet');
    // every hour of the month charged (accrued) first
    await this.charging.chargeDueHours();
    return this.issuePeriod(start, end);
  }

  /**
   * The charging hook: a customer the hourly charge had set aside from `firstHour` is charged again,
   * so the invoices of the months they waited for (complete months from that hour's) are issued now.
   */
  async chargesResolved(customerId: number, firstHour: Date): Promise<void> {
    const now = this.clock.now();
    for (let start = new Date(Date.UTC(firstHour.getUTCFullYear(), firstHour.getUTCMonth(), 1)); ; ) {
      const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      if (end.getTime() > now.getTime()) break;
      const n = await this.issuePeriod(start, end, customerId);
      if (n > 0) this.log.info({ customerId, period: start.toISOString().slice(0, 7) }, 'postpaid invoice issued after the customer was charged again');
      start = end;
    }
  }

  private async issuePeriod(start: Date, end: Date, onlyCustomer?: number): Promise<number> {
    const now = this.clock.now();
    const settings = await this.suspension.settings();
    const due = new Date(now.getTime() + settings.postpaidDueDays * 86_400_000);
    let issued = 0;
    let cursor = 0;
    for (;;) {
      const ids = await this.repo.uninvoicedCustomers(this.db, start, end, cursor, BATCH, onlyCustomer);
      if (ids.length === 0) break;
      cursor = ids[ids.length - 1]!;
      issued += await this.db.transaction(async (tx) => {
        const invoices = await this.repo.insertInvoices(tx, ids, start, end, now, due, this.currency);
        if (invoices.length === 0) return 0;
        await this.webhooks.emitMany(tx, invoices.map((i) => ({ customerId: i.customer_id, type: 'invoice.issued' as const, data: { invoice_id: i.id, number: i.number, period: start.toISOString().slice(0, 7), total: exactNumber(dec(i.subtotal).toFixed(2)), due_at: due.toISOString(), currency: this.currency } })));
        const usage = await this.repo.usageLines(tx, invoices.map((i) => i.id));
        const notices: ChargingNotice[] = [];
        for (const inv of invoices) {
          const lines = distribute(usage.filter((l) => l.invoice_id === inv.id), inv.subtotal);
          await this.repo.insertLines(tx, lines);
          const who = await this.repo.contact(tx, inv.customer_id);
          if (who) {
            await this.mailer.queueMail(
              who.email,
              noticeMail({
                template: 'postpaid_invoice',
                subject: `Invoice ${inv.number}: ${this.currency} ${moneyString(inv.subtotal)}`,
                lines: [
                  `Hello ${who.first_name},`,
                  `Your invoice ${inv.number} for ${start.toISOString().slice(0, 7)} is ${this.currency} ${moneyString(inv.subtotal)}, due ${due.toISOString().slice(0, 10)}.`,
                  'Pay it from your wallet or with a payment method in the billing section.',
                ],
              }),
              tx,
            );
            notices.push({
              customerId: inv.customer_id,
              kind: 'INVOICE_CREATED',
              title: `Invoice ${inv.number}`,
              body: `Your postpaid invoice for ${displayMonth(start)} is ${displayMoney(inv.subtotal, this.currency)}, due ${displayDay(due)}.`,
              reference: { type: 'postpaid_invoice', id: inv.id },
            });
          }
        }
        await this.suspension.notices.notifyMany(notices, tx);
        return invoices.length;
      });
    }
    return issued;
  }

  // ---- customer views ----

  async summary(customerId: number) {
    const now = this.clock.now();
    const t = await this.repo.unpaidTotals(this.db, customerId);
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return {
      currency: this.currency,
      total_unpaid: moneyJson(t.due ?? 0),
      unpaid_count: t.unpaid,
      overdue_count: t.overdue,
      next_due_at: t.next_due ? new Date(t.next_due).toISOString() : null,
      current_period_start: monthStart.toISOString(),
      current_period_accrued: moneyJson(await this.repo.accruedSince(this.db, customerId, monthStart)),
    };
  }

  list(filter: InvoiceFilter, p: PageRequest): Promise<Page<PostpaidInvoiceRow>> {
    return this.repo.list(this.db, filter, p);
  }

  async unpaid(customerId: number): Promise<PostpaidInvoiceRow[]> {
    const page = await this.repo.list(this.db, { customerId, status: 'UNPAID_OR_OVERDUE' }, { page: 1, limit: 1000 });
    return page.items;
  }

  /** One invoice with its lines; `customerId` limits it to that customer's. */
  async detail(invoiceId: string, customerId?: number): Promise<{ invoice: PostpaidInvoiceRow; lines: LineRow[] }> {
    const invoice = await this.repo.find(this.db, invoiceId, customerId);
    if (!invoice) throw new NotFoundError('Invoice');
    return { invoice, lines: await this.repo.lines(this.db, invoice.id) };
  }

  /**
   * Any invoice by id as a PDF: a postpaid invoice, else a top-up invoice (the billing module's
   * receipt, through `useTopupInvoices`); 404 when neither exists (for this customer).
   */
  async pdf(invoiceId: string, customerId?: number): Promise<{ filename: string; pdf: Buffer }> {
    const inv = await this.repo.find(this.db, invoiceId, customerId);
    if (!inv) {
      const topup = await this.topupInvoices.invoicePdf(invoiceId, customerId);
      if (!topup) throw new NotFoundError('Invoice');
      return topup;
    }
    const lines = await this.repo.lines(this.db, inv.id);
    const month = inv.period_start.toISOString().slice(0, 7);
    const day = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
    const [issuer, billTo] = await Promise.all([this.parties.issuer(), this.parties.billTo(inv.customer_id)]);
    const pdf = await renderTablePdf({
      title: `Invoice ${inv.number}`,
      parties: { issuer, billTo },
      lines: [
        `Period: ${month} (${day(inv.period_start)} – ${day(inv.period_end)} UTC)`,
        `Issued: ${inv.issued_at.toISOString().slice(0, 10)}   Due: ${inv.due_at.toISOString().slice(0, 10)}   Status: ${inv.status}`,
      ],
      columns: [
        { header: 'Resource', width: 200 },
        { header: 'Period (UTC)', width: 180 },
        { header: 'Hours', width: 45, align: 'right' },
        { header: `Amount (${inv.currency})`, width: 90, align: 'right' },
      ],
      rows: lines.map((l) => [`${l.description} (${l.resource_type} ${l.resource_id})`, `${day(l.period_start)} – ${day(l.period_end)}`, String(l.hours), moneyString(l.amount ?? 0)]),
      footer: [
        `Total: ${inv.currency} ${moneyString(inv.subtotal)}`,
        `Paid: ${inv.currency} ${moneyString(inv.amount_paid)}`,
        `Amount due: ${inv.currency} ${moneyString(dec(inv.subtotal).minus(inv.amount_paid))}`,
        ...(inv.paid_note ? [`Payment note: ${inv.paid_note}`] : []),
      ],
    });
    return { filename: customerId === undefined ? `admin_invoice_${month}.pdf` : `invoice_${inv.number}.pdf`, pdf };
  }

  // ---- overdue ----

  async overdueSweep(): Promise<{ overdue: number; reminders: number; suspended: number }> {
    const now = this.clock.now();
    const s = await this.suspension.settings();
    let overdue = 0;
    let reminders = 0;
    let suspended = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.markOverdue(tx, now, BATCH);
        await this.webhooks.emitMany(tx, rows.map((r) => ({ customerId: r.customer_id, type: 'invoice.overdue' as const, data: { invoice_id: r.id, number: r.number, amount_due: exactNumber(dec(r.due).toFixed(2)), due_at: new Date(r.due_at).toISOString(), currency: this.currency } })));
        const notices: ChargingNotice[] = [];
        for (const r of rows) {
          notices.push({
            customerId: r.customer_id,
            kind: 'INVOICE_OVERDUE',
            title: `Invoice ${r.number} is overdue`,
            body: `Invoice ${r.number} (${displayMoney(r.due, this.currency)}) was due ${displayDay(new Date(r.due_at))}. Accounts with an invoice overdue for more than ${s.postpaidSuspendGraceDays} days are suspended.`,
            reference: { type: 'postpaid_invoice', id: r.id },
          });
          await this.mailer.queueMail(
            r.email,
            noticeMail({
              template: 'postpaid_overdue',
              subject: `Invoice ${r.number} is overdue`,
              lines: [
                `Hello ${r.first_name},`,
                `Invoice ${r.number} (${this.currency} ${moneyString(r.due)}) was due ${new Date(r.due_at).toISOString().slice(0, 10)} and is now overdue.`,
                `Please pay it: accounts with an invoice overdue for more than ${s.postpaidSuspendGraceDays} days are suspended.`,
              ],
            }),
            tx,
          );
        }
        await this.suspension.notices.notifyMany(notices, tx);
        return rows.length;
      });
      overdue += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.dueSoon(tx, now, new Date(now.getTime() + REMINDER_DAYS * 86_400_000), BATCH);
        await this.suspension.notices.notifyMany(
          rows.map((r) => ({
            customerId: r.customer_id,
            kind: 'INVOICE_DUE_SOON' as const,
            title: `Invoice ${r.number} is due ${displayDay(new Date(r.due_at))}`,
            body: `Invoice ${r.number} (${displayMoney(r.due, this.currency)}) is due ${displayDay(new Date(r.due_at))}.`,
            reference: { type: 'postpaid_invoice', id: r.id },
          })),
          tx,
        );
        for (const r of rows) {
          await this.mailer.queueMail(
            r.email,
            noticeMail({
              template: 'postpaid_reminder',
              subject: `Reminder: invoice ${r.number} is due ${new Date(r.due_at).toISOString().slice(0, 10)}`,
              lines: [`Hello ${r.first_name},`, `Invoice ${r.number} (${this.currency} ${moneyString(r.due)}) is due ${new Date(r.due_at).toISOString().slice(0, 10)}.`],
            }),
            tx,
          );
        }
        return rows.length;
      });
      reminders += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.suspendOverdue(tx, now, s.postpaidSuspendGraceDays, SUSPEND_OVERDUE, BATCH);
        await this.webhooks.emitMany(tx, rows.map((r) => ({ customerId: r.id, type: 'account.suspended' as const, data: { reason: SUSPEND_OVERDUE } })));
        await this.suspension.notices.notifyMany(
          rows.map((r) => suspendedNotice(r.id, now, 'An invoice of your account is overdue past the grace period, so your resources were suspended. They start again once the overdue invoices are paid.')),
          tx,
        );
        for (const r of rows) {
          await this.queue.send(this.suspension.applyJob, { customerId: r.id }, { tx });
          await this.mailer.queueMail(
            r.email,
            noticeMail({
              template: 'billing_suspended',
              subject: 'Your resources are suspended: overdue invoice',
              lines: [`Hello ${r.first_name},`, 'An invoice of your account is overdue past the grace period, so your resources were suspended.', 'They start again once the overdue invoices are paid.'],
            }),
            tx,
          );
        }
        return rows.length;
      });
      suspended += n;
      if (n < BATCH) break;
    }
    return { overdue, reminders, suspended };
  }
}

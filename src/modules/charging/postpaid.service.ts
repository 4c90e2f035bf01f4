import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { requestHash, type IdempotencyRef, type IdempotencyStore } from '../../platform/idempotency/idempotency.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail, receiptMail } from '../../platform/mail/templates.js';
import { Decimal, dec, moneyJson, moneyString } from '../../platform/money.js';
import { renderTablePdf } from '../../platform/pdf/pdf.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { DepositAnswer, DepositsService } from '../billing/index.js';
import type { WalletService } from '../wallet/index.js';
import type { ChargingService } from './charging.service.js';
import type { InvoiceFilter, LineRow, PostpaidInvoiceRow, PostpaidRepository } from './postpaid.repository.js';
import { SUSPEND_OVERDUE } from './suspension.repository.js';
import type { SuspensionService } from './suspension.service.js';

const BATCH = 500;
const REMINDER_DAYS = 3;
export const POSTPAID_PAYMENT_TYPE = 'BalanceLogPostpaidPayment';

export function invoiceView(i: PostpaidInvoiceRow) {
  return {
    invoice_id: i.id,
    number: i.number,
    customer_id: i.customer_id,
    status: i.status,
    period_start: i.period_start.toISOString(),
    period_end: i.period_end.toISOString(),
    subtotal: moneyJson(i.subtotal),
    amount_paid: moneyJson(i.amount_paid),
    amount_due: moneyJson(dec(i.subtotal).minus(i.amount_paid)),
    currency: i.currency,
    issued_at: i.issued_at.toISOString(),
    due_at: i.due_at.toISOString(),
    overdue_at: i.overdue_at?.toISOString() ?? null,
    paid_at: i.paid_at?.toISOString() ?? null,
    paid_note: i.paid_note,
  };
}

function lineView(l: LineRow) {
  return {
    resource_type: l.resource_type,
    resource_id: l.resource_id,
    description: l.description,
    period_start: l.period_start.toISOString(),
    period_end: l.period_end.toISOString(),
    hours: l.hours,
    usage_amount: Number(dec(l.usage_amount).toFixed(6)),
    amount: moneyJson(l.amount ?? 0),
  };
}

/**
 * Rounds each line's exact usage to cents so the lines add up to the invoice subtotal exactly
 * (largest remainder): every line gets its amount rounded down, and the cents left go one by one
 * to the lines with the largest remainders (or, if the carried sub-cent remainders made the
 * subtotal smaller, are taken from the smallest).
 */
export function distribute<T extends { usage_amount: string }>(lines: T[], subtotal: string): (T & { amount: string })[] {
  const floors = lines.map((l) => dec(l.usage_amount).toDecimalPlaces(2, Decimal.ROUND_DOWN));
  let left = dec(subtotal).minus(floors.reduce((s, f) => s.plus(f), new Decimal(0))).times(100).round().toNumber();
  const order = lines.map((l, i) => ({ i, rem: dec(l.usage_amount).minus(floors[i]!) })).sort((a, b) => b.rem.cmp(a.rem) || a.i - b.i);
  const amounts = [...floors];
  for (let k = 0; left > 0 && lines.length > 0; k = (k + 1) % lines.length, left--) amounts[order[k]!.i] = amounts[order[k]!.i]!.plus('0.01');
  for (let k = lines.length - 1; left < 0 && lines.length > 0; k = (k - 1 + lines.length) % lines.length) {
    const i = order[k]!.i;
    if (amounts[i]!.gte('0.01')) {
      amounts[i] = amounts[i]!.minus('0.01');
      left++;
    }
  }
  return lines.map((l, i) => ({ ...l, amount: amounts[i]!.toFixed(2) }));
}

export interface PayMethod {
  method_code?: string;
  gateway_name?: string;
}

export type PayAnswer = {
  payment_id: string;
  status: 'PAID' | 'PENDING';
  total: number;
  wallet_amount: number;
  remainder: number;
  invoices: ReturnType<typeof invoiceView>[];
  payment: DepositAnswer | null;
};

/**
 * Postpaid (spec 4.5, 4.10; DECISIONS 5): usage accrues hourly like prepaid (usage_charges with
 * postpaid = true); on the 1st one cumulative invoice per customer for the month before, with a
 * line per resource and period; UNPAID → OVERDUE after the due date; the account is suspended
 * when an invoice stays OVERDUE past the grace in settings. Payment: the wallet first, the
 * remainder through a gateway top-up; when that top-up is credited the invoices become PAID.
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
    private readonly wallet: WalletService,
    private readonly deposits: DepositsService,
    private readonly idempotency: IdempotencyStore,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly charging: ChargingService,
    private readonly suspension: SuspensionService,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly currency: string,
  ) {}

  // ---- issuing ----

  async issueMonthly(period?: string): Promise<number> {
    const now = this.clock.now();
    let start: Date;
    if (period !== undefined) {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new ValidationError('period must be YYYY-MM');
      start = new Date(`${period}-01T00:00:00Z`);
    } else start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    if (end.getTime() > now.getTime()) throw new BadRequestError('PERIOD_NOT_OVER', 'The month is not over yet');
    // every hour of the month charged (accrued) first
    await this.charging.chargeDueHours();
    const settings = await this.suspension.settings();
    const due = new Date(now.getTime() + settings.postpaidDueDays * 86_400_000);
    let issued = 0;
    let cursor = 0;
    for (;;) {
      const ids = await this.repo.uninvoicedCustomers(this.db, start, end, cursor, BATCH);
      if (ids.length === 0) break;
      cursor = ids[ids.length - 1]!;
      issued += await this.db.transaction(async (tx) => {
        const invoices = await this.repo.insertInvoices(tx, ids, start, end, now, due, this.currency);
        if (invoices.length === 0) return 0;
        const usage = await this.repo.usageLines(tx, invoices.map((i) => i.id));
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
          }
        }
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

  async list(filter: InvoiceFilter, p: PageRequest) {
    const page = await this.repo.list(this.db, filter, p);
    return { items: page.items.map(invoiceView), total: page.total };
  }

  async unpaid(customerId: number) {
    const page = await this.repo.list(this.db, { customerId, status: 'UNPAID_OR_OVERDUE' }, { page: 1, limit: 1000 });
    return page.items.map(invoiceView);
  }

  async detail(invoiceId: string, customerId?: number) {
    const inv = await this.repo.find(this.db, invoiceId, customerId);
    if (!inv) throw new NotFoundError('Invoice');
    return { ...invoiceView(inv), ...(customerId === undefined ? { customer_email: inv.customer_email ?? null } : {}), lines: (await this.repo.lines(this.db, inv.id)).map(lineView) };
  }

  async pdf(invoiceId: string, customerId?: number): Promise<{ filename: string; pdf: Buffer }> {
    const inv = await this.repo.find(this.db, invoiceId, customerId);
    if (!inv) throw new NotFoundError('Invoice');
    const lines = await this.repo.lines(this.db, inv.id);
    const month = inv.period_start.toISOString().slice(0, 7);
    const day = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
    const pdf = await renderTablePdf({
      title: `Invoice ${inv.number}`,
      lines: [
        `Customer: ${inv.customer_email ?? inv.customer_id}`,
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

  // ---- paying ----

  async pay(customerId: number, invoiceIds: string[], method: PayMethod, idempotencyKey?: string): Promise<PayAnswer> {
    const ids = [...new Set(invoiceIds.map((i) => i.toLowerCase()))].sort();
    if (ids.length === 0) throw new ValidationError('Validation failed', [{ field: 'invoice_ids', message: 'at least one invoice' }]);
    const ref: IdempotencyRef | undefined = idempotencyKey
      ? { scope: 'postpaid.pay', owner: `customer:${customerId}`, key: idempotencyKey, requestHash: requestHash({ ids, ...method }) }
      : undefined;
    const now = this.clock.now();
    type Started = { kind: 'replay'; answer: PayAnswer } | { kind: 'in_progress' } | { kind: 'done'; answer: PayAnswer; claimId?: number; remainder: string };
    const started = await this.db.transaction(async (tx): Promise<Started> => {
      let claimId: number | undefined;
      if (ref) {
        const claim = await this.idempotency.claim<PayAnswer>(tx, ref);
        if (claim.kind === 'replay') return { kind: 'replay', answer: claim.answer.body };
        if (claim.kind === 'in_progress') return { kind: 'in_progress' };
        claimId = claim.id;
      }
      const invoices: PostpaidInvoiceRow[] = [];
      for (const id of ids) {
        const inv = await this.repo.find(tx, id, customerId, true);
        if (!inv) throw new NotFoundError('Invoice');
        if (inv.status === 'PAID') throw new ConflictError(`Invoice ${inv.number} is already paid`, 'INVOICE_ALREADY_PAID');
        invoices.push(inv);
      }
      invoices.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.number.localeCompare(b.number));
      const total = invoices.reduce((s, i) => s.plus(i.subtotal).minus(i.amount_paid), new Decimal(0));
      const balance = await this.wallet.balances(customerId, tx);
      const walletPart = Decimal.min(Decimal.max(balance.currentBalance, 0), total);
      const remainder = total.minus(walletPart);
      if (remainder.gt(0) && !(method.method_code && method.gateway_name)) {
        throw new BadRequestError('PAYMENT_METHOD_REQUIRED', `The wallet covers ${moneyString(walletPart)} of ${moneyString(total)}: method_code and gateway_name are needed for the rest`);
      }
      const paymentId = await this.repo.insertPayment(tx, {
        customerId,
        invoiceIds: invoices.map((i) => i.id),
        total: total.toFixed(2),
        walletAmount: walletPart.toFixed(2),
        remainder: remainder.toFixed(2),
        status: remainder.gt(0) ? 'PENDING' : 'PAID',
        now,
      });
      const after = walletPart.gt(0) ? await this.applyFromWallet(tx, customerId, paymentId, invoices, walletPart, now) : invoices;
      if (remainder.isZero()) await this.afterPaid(tx, customerId, after, now);
      const answer: PayAnswer = {
        payment_id: paymentId,
        status: remainder.gt(0) ? 'PENDING' : 'PAID',
        total: moneyJson(total),
        wallet_amount: moneyJson(walletPart),
        remainder: moneyJson(remainder),
        invoices: after.map(invoiceView),
        payment: null,
      };
      if (remainder.isZero() && claimId !== undefined) await this.idempotency.complete(tx, claimId, { status: 200, body: answer });
      return { kind: 'done', answer, claimId, remainder: remainder.toFixed(2) };
    });
    if (started.kind === 'replay') return started.answer;
    if (started.kind === 'in_progress') return (await this.idempotency.awaitAnswer<PayAnswer>(ref!)).body;
    if (started.answer.status === 'PAID') return started.answer;

    // the remainder: a top-up of at least the account's minimum through the gateway (outside any transaction)
    const minimum = (await this.deposits.minimum(customerId)).minimum_amount;
    const amount = Decimal.max(started.remainder, minimum);
    let deposit: DepositAnswer;
    try {
      deposit = await this.deposits.createDeposit(customerId, { amount: amount.toNumber(), method_code: method.method_code!, gateway_name: method.gateway_name!, coupon_code: null });
    } catch (err) {
      await this.db.transaction(async (tx) => {
        await this.repo.linkPayment(tx, started.answer.payment_id, null, 'CANCELLED');
        if (started.claimId !== undefined) await this.idempotency.release(tx, started.claimId);
      });
      throw err;
    }
    const answer: PayAnswer = { ...started.answer, payment: deposit };
    await this.db.transaction(async (tx) => {
      await this.repo.linkPayment(tx, answer.payment_id, deposit.invoice_id);
      if (started.claimId !== undefined) await this.idempotency.complete(tx, started.claimId, { status: 200, body: answer });
    });
    return answer;
  }

  /** Takes `amount` from the wallet (one ledger entry) and spreads it over the invoices, oldest first. */
  private async applyFromWallet(tx: Executor, customerId: number, paymentId: string, invoices: PostpaidInvoiceRow[], amount: Decimal, now: Date, part = 'wallet') {
    await this.wallet.debit(tx, {
      customerId,
      type: POSTPAID_PAYMENT_TYPE,
      amount: amount.toFixed(2),
      from: 'bonus_first',
      allowNegative: false,
      referenceType: 'postpaid_payment',
      referenceId: part === 'wallet' ? paymentId : `${paymentId}:${part}`,
      description: `Postpaid invoice${invoices.length > 1 ? 's' : ''} ${invoices.map((i) => i.number).join(', ')}`,
    });
    let left = amount;
    const out: PostpaidInvoiceRow[] = [];
    for (const inv of invoices) {
      const due = dec(inv.subtotal).minus(inv.amount_paid);
      const take = Decimal.min(due, left);
      left = left.minus(take);
      out.push(take.gt(0) ? await this.repo.addPayment(tx, inv.id, take.toFixed(2), now) : inv);
    }
    return out;
  }

  private async afterPaid(tx: Executor, customerId: number, invoices: PostpaidInvoiceRow[], now: Date) {
    const paid = invoices.filter((i) => i.status === 'PAID');
    const who = await this.repo.contact(tx, customerId);
    if (who && paid.length > 0) {
      const total = paid.reduce((s, i) => s.plus(i.subtotal), new Decimal(0));
      await this.mailer.queueMail(
        who.email,
        receiptMail({ reference: paid.map((i) => i.number).join(', '), description: 'Postpaid invoice payment', amount: moneyString(total), currency: this.currency, paidAt: now }),
        tx,
      );
    }
    await this.maybeResume(tx, customerId, now);
  }

  private async maybeResume(tx: Executor, customerId: number, now: Date) {
    const s = await this.suspension.settings(tx);
    if (await this.repo.resumeSettled(tx, customerId, now, s.postpaidSuspendGraceDays, SUSPEND_OVERDUE)) {
      await this.queue.send(this.suspension.applyJob, { customerId }, { tx });
    }
  }

  /** The billing hook: a top-up was credited; if it pays the rest of a postpaid payment, settle it now. */
  async onTopupCredited(tx: Executor, customerId: number, topupInvoiceId: string): Promise<void> {
    const p = await this.repo.pendingPaymentOfTopup(tx, topupInvoiceId);
    if (!p || p.customerId !== customerId) return;
    const now = this.clock.now();
    const invoices: PostpaidInvoiceRow[] = [];
    for (const id of [...p.invoiceIds].sort()) {
      const inv = await this.repo.find(tx, id, customerId, true);
      if (inv && inv.status !== 'PAID') invoices.push(inv);
    }
    invoices.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.number.localeCompare(b.number));
    const due = invoices.reduce((s, i) => s.plus(i.subtotal).minus(i.amount_paid), new Decimal(0));
    const balance = await this.wallet.balances(customerId, tx);
    const take = Decimal.min(due, Decimal.max(balance.currentBalance, 0));
    const after = take.gt(0) ? await this.applyFromWallet(tx, customerId, p.id, invoices, take, now, 'gateway') : invoices;
    await this.repo.markPaymentPaid(tx, p.id, now);
    await this.afterPaid(tx, customerId, after, now);
  }

  // ---- staff ----

  async verify(adminId: number, invoiceId: string, paidNote: string) {
    const now = this.clock.now();
    const note = paidNote.trim();
    if (note === '') throw new ValidationError('Validation failed', [{ field: 'paid_note', message: 'is required' }]);
    return this.db.transaction(async (tx) => {
      const inv = await this.repo.find(tx, invoiceId, undefined, true);
      if (!inv) throw new NotFoundError('Invoice');
      if (inv.status === 'PAID') throw new ConflictError('The invoice is already paid', 'INVOICE_ALREADY_PAID');
      await this.repo.markVerified(tx, inv.id, note, adminId, now);
      const who = await this.repo.contact(tx, inv.customer_id);
      if (who) {
        await this.mailer.queueMail(
          who.email,
          receiptMail({ reference: inv.number, description: `Postpaid invoice ${inv.number} (manual payment verified)`, amount: moneyString(dec(inv.subtotal).minus(inv.amount_paid)), currency: inv.currency, paidAt: now, note }),
          tx,
        );
      }
      await this.maybeResume(tx, inv.customer_id, now);
      return invoiceView((await this.repo.find(tx, inv.id))!);
    });
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
        for (const r of rows) {
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
        return rows.length;
      });
      overdue += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.dueSoon(tx, now, new Date(now.getTime() + REMINDER_DAYS * 86_400_000), BATCH);
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

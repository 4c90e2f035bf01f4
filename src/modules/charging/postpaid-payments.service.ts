import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { idempotencyRef, type IdempotencyStore } from '../../platform/idempotency/idempotency.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { receiptMail } from '../../platform/mail/templates.js';
import { Decimal, dec, moneyJson, moneyString } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import type { JobQueue } from '../../platform/queue/queue.js';
import type { TopupAnswer, TopupsService } from '../billing/index.js';
import type { WalletService } from '../wallet/index.js';
import type { PostpaidInvoiceRow, PostpaidRepository } from './postpaid.repository.js';
import { invoiceView } from './charging.present.js';
import { SUSPEND_OVERDUE } from './suspension.repository.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';
import { resumedNotice, type ChargingNotice, type SuspensionService } from './suspension.service.js';

export const POSTPAID_PAYMENT_TYPE = 'BalanceLogPostpaidPayment';

function paidNotice(customerId: number, invoiceId: string, number: string, amount: string): ChargingNotice {
  return { customerId, kind: 'INVOICE_PAID', title: `Invoice ${number} is paid`, body: `Invoice ${number} is paid (${amount}); the receipt was mailed to you.`, reference: { type: 'postpaid_invoice', id: invoiceId } };
}

/** A payment whose request has not linked its gateway top-up after this long was abandoned (the process stopped). */
const LINK_WAIT_MS = 10 * 60_000;

const sameInvoices = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface PayMethod {
  method_code?: string;
  gateway_name?: string;
}

export type PayAnswer = {
  payment_id: string;
  status: 'PAID' | 'PENDING';
  total: string;
  wallet_amount: string;
  remainder: string;
  invoices: ReturnType<typeof invoiceView>[];
  payment: TopupAnswer | null;
};

/**
 * Paying postpaid invoices (docs/api.md, "Postpaid invoices"; docs/decisions.md §5): the wallet first, the remainder through
 * a gateway top-up settled when it is credited (the billing hook); staff verification of manual
 * transfers. Paying or verifying the overdue invoices lifts an overdue suspension.
 */
export class PostpaidPaymentsService {
  constructor(
    private readonly db: Database,
    private readonly repo: PostpaidRepository,
    private readonly wallet: WalletService,
    private readonly topups: TopupsService,
    private readonly idempotency: IdempotencyStore,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly suspension: SuspensionService,
    private readonly clock: Clock,
    private readonly currency: string,
    private readonly webhooks: WebhookEmitter,
  ) {}

  async pay(customerId: number, invoiceIds: string[], method: PayMethod, idempotencyKey?: string): Promise<PayAnswer> {
    const ids = [...new Set(invoiceIds.map((i) => i.toLowerCase()))].sort();
    if (ids.length === 0) throw new ValidationError('Validation failed', [{ field: 'invoice_ids', message: 'at least one invoice' }]);
    const ref = idempotencyRef('postpaid.pay', `customer:${customerId}`, idempotencyKey, { ids, ...method });
    const now = this.clock.now();
    return this.idempotency.run<PayAnswer>(ref, async (key) => {
      type Started = { kind: 'open'; answer: PayAnswer } | { kind: 'done'; answer: PayAnswer; remainder: string };
      const started = await this.db.transaction(async (tx): Promise<Started> => {
        await key.claim(tx);
        const invoices: PostpaidInvoiceRow[] = [];
        for (const id of ids) {
          const inv = await this.repo.find(tx, id, customerId, true);
          if (!inv) throw new NotFoundError('Invoice');
          if (inv.status === 'PAID') throw new ConflictError(`Invoice ${inv.number} is already paid`, 'INVOICE_ALREADY_PAID');
          invoices.push(inv);
        }
        invoices.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.number.localeCompare(b.number));
        // one open payment per invoice: the same request again shows its link; any other is refused
        const open = await this.openPayment(tx, customerId, ids, now);
        if (open) {
          const answer: PayAnswer = {
            payment_id: open.id,
            status: 'PENDING',
            total: moneyJson(open.total),
            wallet_amount: moneyJson(open.walletAmount),
            remainder: moneyJson(open.remainder),
            invoices: invoices.map(invoiceView),
            payment: open.topup,
          };
          await key.complete(tx, answer);
          return { kind: 'open', answer };
        }
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
        if (remainder.isZero()) await this.afterPaid(tx, customerId, after, now, paymentId);
        const answer: PayAnswer = {
          payment_id: paymentId,
          status: remainder.gt(0) ? 'PENDING' : 'PAID',
          total: moneyJson(total),
          wallet_amount: moneyJson(walletPart),
          remainder: moneyJson(remainder),
          invoices: after.map(invoiceView),
          payment: null,
        };
        if (remainder.isZero()) await key.complete(tx, answer);
        return { kind: 'done', answer, remainder: remainder.toFixed(2) };
      });
      if (started.kind === 'open' || started.answer.status === 'PAID') return started.answer;

      // the remainder: a top-up of at least the account's minimum through the gateway (outside any transaction)
      const minimum = (await this.topups.minimum(customerId)).minimum_amount;
      const amount = Decimal.max(started.remainder, minimum);
      let topup: TopupAnswer;
      try {
        topup = await this.topups.createTopup(customerId, { amount: amount.toNumber(), method_code: method.method_code!, gateway_name: method.gateway_name!, coupon_code: null });
      } catch (err) {
        await this.db.transaction(async (tx) => {
          await this.repo.linkPayment(tx, started.answer.payment_id, null, 'CANCELLED');
          await key.release(tx);
        });
        throw err;
      }
      const answer: PayAnswer = { ...started.answer, payment: topup };
      await this.db.transaction(async (tx) => {
        await this.repo.linkPayment(tx, answer.payment_id, topup.invoice_id);
        await key.complete(tx, answer);
      });
      return answer;
    });
  }

  /**
   * The open payment of exactly these invoices (with its link), if there is one. Payments that can
   * no longer be paid (their top-up Failed or Expired, or never linked because the request that
   * made it stopped) are cancelled on the way. Another open payment of any of them: 409
   * PAYMENT_IN_PROGRESS (also while the first request is still creating its link).
   */
  private async openPayment(tx: Executor, customerId: number, ids: string[], now: Date) {
    let live: Awaited<ReturnType<PostpaidRepository['openPaymentsOf']>>[number] | undefined;
    for (const p of await this.repo.openPaymentsOf(tx, customerId, ids, false)) {
      const abandoned = p.topupInvoiceId === null && now.getTime() - p.createdAt.getTime() > LINK_WAIT_MS;
      if (abandoned || p.topupStatus === 'Failed' || p.topupStatus === 'Expired') {
        await this.repo.endPayment(tx, p.id, 'CANCELLED', now);
        continue;
      }
      if (live || p.topupInvoiceId === null || !sameInvoices(p.invoiceIds, ids)) {
        throw new ConflictError('A payment of these invoices is already open: pay it through its payment link, or wait until it expires', 'PAYMENT_IN_PROGRESS');
      }
      live = p;
    }
    if (!live) return undefined;
    const topup = await this.topups.answer(customerId, live.topupInvoiceId!, tx);
    return { ...live, topup: topup ?? null };
  }

  /**
   * The invoices were paid (by this payment, another one, or staff): every other open payment of
   * them is cancelled and its gateway top-up voided (Expired), so its page no longer takes money.
   * A gateway that pays it all the same is credited to the wallet as a top-up.
   */
  private async voidOtherPayments(tx: Executor, customerId: number, invoiceIds: string[], now: Date, except?: string): Promise<void> {
    if (invoiceIds.length === 0) return;
    for (const p of await this.repo.openPaymentsOf(tx, customerId, invoiceIds, true)) {
      if (p.id === except) continue;
      await this.repo.endPayment(tx, p.id, 'CANCELLED', now);
      if (p.topupInvoiceId) await this.topups.voidPending(tx, p.topupInvoiceId);
    }
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

  private async afterPaid(tx: Executor, customerId: number, invoices: PostpaidInvoiceRow[], now: Date, paymentId: string) {
    const paid = invoices.filter((i) => i.status === 'PAID');
    await this.webhooks.emitMany(tx, paid.map((i) => ({ customerId, type: 'invoice.paid' as const, data: { invoice_id: i.id, number: i.number, total: exactNumber(dec(i.subtotal).toFixed(2)), currency: i.currency } })));
    await this.suspension.notices.notifyMany(paid.map((i) => paidNotice(customerId, i.id, i.number, displayMoney(i.subtotal, i.currency))), tx);
    await this.voidOtherPayments(tx, customerId, paid.map((i) => i.id), now, paymentId);
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
      await this.webhooks.emit(tx, { customerId, type: 'account.resumed', data: {} });
      await this.queue.send(this.suspension.applyJob, { customerId }, { tx });
      await this.suspension.notices.notifyMany([resumedNotice(customerId, now)], tx);
    }
  }

  /** The billing hook: top-ups were credited (a batch); each that pays the rest of a postpaid payment settles it now. */
  async onTopupsCredited(tx: Executor, topups: { customerId: number; invoiceId: string }[]): Promise<void> {
    const payments = await this.repo.pendingPaymentsOfTopups(tx, topups.map((t) => t.invoiceId));
    for (const topup of topups) {
      const p = payments.get(topup.invoiceId);
      if (!p || p.customerId !== topup.customerId) continue;
      const customerId = topup.customerId;
      const now = this.clock.now();
      const invoices: PostpaidInvoiceRow[] = [];
      for (const id of [...p.invoiceIds].sort()) {
        const inv = await this.repo.find(tx, id, customerId, true);
        if (inv && inv.status !== 'PAID') invoices.push(inv);
      }
      invoices.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.number.localeCompare(b.number));
      const due = invoices.reduce((s, i) => s.plus(i.subtotal).minus(i.amount_paid), new Decimal(0));
      if (due.lte(0)) {
        // its invoices were paid another way meanwhile: it settles nothing, the top-up stays in the wallet
        await this.repo.endPayment(tx, p.id, 'CANCELLED', now);
        continue;
      }
      const balance = await this.wallet.balances(customerId, tx);
      const take = Decimal.min(due, Decimal.max(balance.currentBalance, 0));
      const after = take.gt(0) ? await this.applyFromWallet(tx, customerId, p.id, invoices, take, now, 'gateway') : invoices;
      const settled = after.every((i) => i.status === 'PAID');
      await this.repo.endPayment(tx, p.id, settled ? 'PAID' : take.gt(0) ? 'PARTIAL' : 'CANCELLED', now);
      await this.afterPaid(tx, customerId, after, now, p.id);
    }
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
      await this.webhooks.emit(tx, { customerId: inv.customer_id, type: 'invoice.paid', data: { invoice_id: inv.id, number: inv.number, total: exactNumber(dec(inv.subtotal).toFixed(2)), currency: inv.currency } });
      await this.suspension.notices.notifyMany([paidNotice(inv.customer_id, inv.id, inv.number, displayMoney(dec(inv.subtotal).minus(inv.amount_paid), inv.currency))], tx);
      await this.voidOtherPayments(tx, inv.customer_id, [inv.id], now);
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

}

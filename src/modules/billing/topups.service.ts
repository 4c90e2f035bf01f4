import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { idempotencyRef, type IdempotencyStore } from '../../platform/idempotency/idempotency.js';
import { Decimal, dec, isMoneyAmount, isMoneyInput, MONEY_INPUT_MAX, moneyInputRule, moneyJson, moneyString } from '../../platform/money.js';
import { renderTablePdf, type DocumentParties } from '../../platform/pdf/pdf.js';
import { GATEWAY_NAMES, type GatewayName, type PaymentGateways, type PaymentMethodType } from '../../integrations/payment-gateways/index.js';
import type { BillingRepository, PaymentMethodRow, TopupInvoiceRow } from './billing.repository.js';
import type { CouponsService } from './coupons.service.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import { answerOf, type TopupAnswer } from './billing.present.js';
import { paymentMethodLabel } from './gateway-labels.js';
import { displayMoney } from '../../platform/money-display.js';
import { displayTime } from '../../platform/date-display.js';

/** The wallet as top-ups need it: its balances, read in the top-up's transaction. */
export interface WalletBalances {
  balances(customerId: number, ex: Executor): Promise<{ actualBalance: string; currentBalance: string }>;
}

/** The platform-wide smallest top-up, unless the account has its own (billing_account_settings). */
export const DEFAULT_MINIMUM_TOPUP = '10000.00';
/** The largest single top-up: the bound of every money input. */
export const MAXIMUM_TOPUP = MONEY_INPUT_MAX;
/** A wallet holds less than this (NUMERIC(18,2)). */
export const WALLET_LIMIT = '10000000000000000';
/** Rows in the PDF export. */
export const EXPORT_MAX_ROWS = 5000;

export interface TopupInput {
  amount: number;
  method_code: string;
  gateway_name: string;
  coupon_code?: string | null;
}

/** Tells the customer about a new invoice (the notifications module's NotificationsService). */
export interface InvoiceNotifier {
  notify(customerId: number, kind: 'INVOICE_CREATED', content: { title: string; body: string; reference: { type: string; id: string } }, tx: Executor): Promise<unknown>;
}

/** The customer's side of prepaid billing: methods, minimum, top-ups. */
export class TopupsService {
  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly coupons: CouponsService,
    private readonly gateways: PaymentGateways,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    private readonly opts: { currency: string; expiryHours: number; parties: DocumentParties },
    private readonly wallet: WalletBalances,
    /** the notifications module: a notification for every new invoice */
    private readonly notifier: InvoiceNotifier,
  ) {}

  paymentMethods(): Promise<PaymentMethodRow[]> {
    return this.repo.listPaymentMethods(this.db);
  }

  async minimum(customerId: number): Promise<{ minimum_amount: string; currency: string }> {
    return { minimum_amount: moneyJson(await this.minimumOf(customerId)), currency: this.opts.currency };
  }

  private async minimumOf(customerId: number): Promise<string> {
    return (await this.repo.minimumOverride(this.db, customerId)) ?? DEFAULT_MINIMUM_TOPUP;
  }

  async setMinimum(customerId: number, minimum: number | null): Promise<{ minimum_amount: string; currency: string; is_default: boolean }> {
    // (the largest top-up is the bound of every money input, so a minimum never makes top-ups impossible)
    if (minimum !== null && !isMoneyInput(minimum, true)) {
      throw new ValidationError('Validation failed', [{ field: 'minimum_amount', message: moneyInputRule(true) }]);
    }
    if (!(await this.repo.customerContact(this.db, customerId))) throw new NotFoundError('Customer');
    await this.repo.setMinimumOverride(this.db, customerId, minimum === null ? null : moneyString(minimum));
    return { ...(await this.minimum(customerId)), is_default: minimum === null };
  }

  /**
   * Creates a Pending top-up invoice and registers it with the gateway. The gateway is called
   * outside any transaction (docs/architecture.md, habit 6): the invoice (and the Idempotency-Key claim)
   * commit first, the payment details and the stored answer after.
   */
  async createTopup(customerId: number, input: TopupInput, idempotencyKey?: string, returnBase?: string): Promise<TopupAnswer> {
    const ref = idempotencyRef('billing.deposit', `customer:${customerId}`, idempotencyKey, input);
    return this.idempotency.run<TopupAnswer>(ref, async (key) => {
      const invoice = await this.db.transaction(async (tx) => {
        await key.claim(tx);
        const invoice = await this.repo.insertTopup(tx, await this.newTopup(tx, customerId, input));
        await this.notifier.notify(
          customerId,
          'INVOICE_CREATED',
          {
            title: 'New top-up invoice',
            body: `Top-up invoice of ${displayMoney(invoice.totalAmount, invoice.currency)} by ${paymentMethodLabel(invoice.gatewayName, invoice.methodName)}; pay before ${displayTime(invoice.expiresAt)}.`,
            reference: { type: 'topup_invoice', id: invoice.id },
          },
          tx,
        );
        noteActivityTarget(invoice.id);
        return invoice;
      });

      const contact = (await this.repo.customerContact(this.db, customerId)) ?? { email: '', name: '' };
      let payment;
      try {
        payment = await this.gateways.get(invoice.gatewayName as GatewayName)!.createPayment({
          invoiceId: invoice.id,
          totalAmount: invoice.totalAmount,
          currency: invoice.currency,
          methodCode: invoice.methodCode,
          methodType: invoice.methodType as PaymentMethodType,
          customer: contact,
          expiresAt: invoice.expiresAt,
          description: `Wallet top-up ${moneyString(invoice.amount)} ${invoice.currency}`,
          ...(returnBase ? { returnBase } : {}),
        });
      } catch (err) {
        await this.db.transaction(async (tx) => {
          const failed = await this.repo.markFailed(tx, invoice.id, this.clock.now());
          if (failed?.couponId != null && failed.bonusStatus === 'released') await this.coupons.release(tx, failed.couponId);
          await key.release(tx);
        });
        throw err;
      }
      return this.db.transaction(async (tx) => {
        const answer = answerOf(await this.repo.setPaymentDetails(tx, invoice.id, payment));
        await key.complete(tx, answer);
        return answer;
      });
    });
  }

  /** Checks the request (400 with a specific code) and prices it. */
  private async newTopup(tx: Executor, customerId: number, input: TopupInput) {
    if (!isMoneyAmount(input.amount) || input.amount <= 0) {
      throw new ValidationError('Validation failed', [{ field: 'amount', message: 'must be a positive amount with at most 2 decimals' }]);
    }
    const amount = moneyString(input.amount);
    if (!(GATEWAY_NAMES as readonly string[]).includes(input.gateway_name)) {
      throw new BadRequestError('INVALID_PAYMENT_METHOD', `Unknown gateway ${input.gateway_name}; see GET /api/billing/payment-methods`);
    }
    const method = await this.repo.findPaymentMethod(tx, input.gateway_name, input.method_code);
    if (!method) throw new BadRequestError('INVALID_PAYMENT_METHOD', `${input.gateway_name} has no payment method ${input.method_code}; see GET /api/billing/payment-methods`);
    const minimum = (await this.repo.minimumOverride(tx, customerId)) ?? DEFAULT_MINIMUM_TOPUP;
    if (dec(amount).lt(minimum)) throw new BadRequestError('AMOUNT_BELOW_MINIMUM', `The smallest top-up is ${minimum} ${this.opts.currency}`);
    if (dec(amount).gt(MAXIMUM_TOPUP)) throw new BadRequestError('AMOUNT_ABOVE_MAXIMUM', `The largest top-up is ${MAXIMUM_TOPUP} ${this.opts.currency}`);
    const couponCode = input.coupon_code?.trim() || null;
    const coupon = couponCode ? await this.coupons.validateForTopup(tx, couponCode, amount) : undefined;
    await this.assertCreditable(tx, customerId, amount, coupon?.bonus ?? '0');
    // The quoted bonus holds a use of the coupon from now on (released if the invoice fails or expires).
    if (coupon) await this.coupons.reserve(tx, coupon.coupon.id);
    const fee = dec(method.feeFlat).plus(dec(amount).times(method.feePercent).div(100)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const now = this.clock.now();
    return {
      id: randomUUID(),
      customerId,
      gatewayName: method.gatewayName,
      methodCode: method.methodCode,
      methodName: method.name,
      methodType: method.type,
      amount,
      fee: fee.toFixed(2),
      totalAmount: dec(amount).plus(fee).toFixed(2),
      currency: this.opts.currency,
      couponId: coupon?.coupon.id ?? null,
      couponCode: coupon?.coupon.code ?? null,
      bonusAmount: coupon?.bonus ?? '0.00',
      bonusStatus: coupon ? ('reserved' as const) : ('none' as const),
      status: 'Pending',
      expiresAt: new Date(now.getTime() + this.opts.expiryHours * 3600_000),
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * A top-up is refused (400 BALANCE_LIMIT) when the wallet could not hold it, with its bonus,
   * once every open top-up of the customer is credited too: a payment taken must always be
   * creditable. One customer's top-up checks run one at a time (an advisory lock), so parallel
   * top-ups cannot each count on the same headroom.
   */
  private async assertCreditable(tx: Executor, customerId: number, amount: string, bonus: string): Promise<void> {
    await this.repo.lockTopupsOf(tx, customerId);
    const wallet = await this.wallet.balances(customerId, tx);
    const open = await this.repo.outstandingOf(tx, customerId);
    const actualAfter = dec(wallet.actualBalance).plus(open.actual).plus(amount);
    const currentAfter = dec(wallet.currentBalance).plus(open.current).plus(amount).plus(bonus);
    if (actualAfter.gte(WALLET_LIMIT) || currentAfter.gte(WALLET_LIMIT)) {
      throw new BadRequestError('BALANCE_LIMIT', 'This top-up (with its bonus and your other open top-ups) would take the wallet past the largest balance it can hold');
    }
  }

  list(customerId: number, p: PageRequest): Promise<Page<TopupInvoiceRow>> {
    return this.repo.listTopups(this.db, { customerId }, p);
  }

  /** Backoffice: every customer's top-up invoices, optionally by status and customer. */
  adminList(filter: { status?: string; customerId?: number }, p: PageRequest): Promise<Page<TopupInvoiceRow>> {
    return this.repo.listTopups(this.db, filter, p);
  }

  async get(customerId: number, invoiceId: string) {
    const invoice = await this.repo.findInvoice(this.db, invoiceId, customerId);
    if (!invoice) throw new NotFoundError('Invoice');
    return invoice;
  }

  /**
   * One top-up invoice as a PDF: the invoice while it waits for payment, the receipt once Paid
   * (status, method, fee, coupon bonus and what reached the wallet). `customerId` limits it to that
   * customer's invoices (the customer's download); staff name any. Undefined when there is no such
   * top-up invoice. File name: `invoice_<id>.pdf`, or for staff `admin_invoice_YYYY-MM.pdf` with the
   * month (UTC) the invoice was made.
   */
  async invoicePdf(invoiceId: string, customerId?: number): Promise<{ filename: string; pdf: Buffer } | undefined> {
    const inv = await this.repo.findInvoice(this.db, invoiceId, customerId);
    if (!inv) return undefined;
    const parties = await this.partiesOf(inv.customerId);
    const at = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const money = (v: string) => moneyString(v);
    const paid = inv.status === 'Paid';
    const bonusShown = inv.bonusStatus === 'credited' || inv.bonusStatus === 'forfeited' ? (inv.creditedBonus ?? '0') : inv.bonusAmount;
    const pdf = await renderTablePdf({
      title: paid ? 'Receipt' : 'Top-up invoice',
      parties,
      lines: [
        `Invoice: ${inv.id}`,
        `Created: ${at(inv.createdAt)}   Status: ${inv.status}`,
        paid ? `Paid: ${inv.paidAt ? at(inv.paidAt) : ''}` : inv.status === 'Pending' ? `Pay before: ${at(inv.expiresAt)}` : 'Nothing was charged for this invoice.',
        `Payment method: ${paymentMethodLabel(inv.gatewayName, inv.methodName)}`,
      ],
      columns: [
        { header: 'Item', width: 380 },
        { header: `Amount (${inv.currency})`, width: 135, align: 'right' },
      ],
      rows: [
        ['Wallet top-up', money(inv.amount)],
        ['Payment fee', money(inv.fee)],
        ...(inv.couponCode ? [[`Coupon ${inv.couponCode} bonus (${inv.bonusStatus})`, money(bonusShown)]] : []),
      ],
      footer: [
        paid ? `Total paid: ${inv.currency} ${money(inv.totalAmount)}` : `${inv.status === 'Pending' ? 'Amount due' : 'Amount'}: ${inv.currency} ${money(inv.totalAmount)}`,
        ...(inv.creditedAt
          ? [`Credited to the wallet: ${inv.currency} ${money(inv.amount)}${inv.creditedBonus && dec(inv.creditedBonus).gt(0) ? ` and ${inv.currency} ${money(inv.creditedBonus)} bonus credit` : ''} (${at(inv.creditedAt)})`]
          : paid
            ? ['Being credited to the wallet.']
            : []),
        'The payment fee goes to the payment method; the wallet receives the top-up amount.',
      ],
    });
    const filename = customerId === undefined ? `admin_invoice_${inv.createdAt.toISOString().slice(0, 7)}.pdf` : `invoice_${inv.id}.pdf`;
    return { filename, pdf };
  }

  private async partiesOf(customerId: number) {
    const [issuer, billTo] = await Promise.all([this.opts.parties.issuer(), this.opts.parties.billTo(customerId)]);
    return { issuer, billTo };
  }

  /** A top-up as its creation answered it (with payment_url): what a repeated postpaid payment shows again. */
  async answer(customerId: number, invoiceId: string, ex: Executor = this.db): Promise<TopupAnswer | undefined> {
    const invoice = await this.repo.findInvoice(ex, invoiceId, customerId);
    return invoice && answerOf(invoice);
  }

  /**
   * Voids a Pending top-up whose purpose went away (the link of a postpaid payment whose invoices
   * were paid another way): it becomes Expired now, so its payment page no longer offers to pay, and
   * its coupon use (if any) is given back. A gateway that still reports it paid is credited to the
   * wallet like any late payment. True when it moved.
   */
  async voidPending(tx: Executor, invoiceId: string): Promise<boolean> {
    const row = await this.repo.markExpired(tx, invoiceId, this.clock.now());
    if (!row) return false;
    if (row.couponId !== null && row.bonusStatus === 'released') await this.coupons.release(tx, row.couponId);
    return true;
  }

  /** Every top-up of the customer (newest first, up to EXPORT_MAX_ROWS) as a PDF statement. */
  async exportPdf(customerId: number): Promise<{ filename: string; pdf: Buffer }> {
    const parties = await this.partiesOf(customerId);
    const rows = await this.repo.allInvoicesOf(this.db, customerId, EXPORT_MAX_ROWS);
    const now = this.clock.now();
    const paid = rows.filter((r) => r.status === 'Paid').reduce((sum, r) => sum.plus(r.amount), dec(0));
    const pdf = await renderTablePdf({
      title: 'Deposit history',
      parties,
      lines: [
        `Generated: ${now.toISOString()}`,
        `Currency: ${this.opts.currency}`,
      ],
      columns: [
        { header: 'Date (UTC)', width: 95 },
        { header: 'Invoice', width: 180 },
        { header: 'Method', width: 90 },
        { header: 'Amount', width: 80, align: 'right' },
        { header: 'Status', width: 70 },
      ],
      rows: rows.map((r) => [
        r.createdAt.toISOString().slice(0, 16).replace('T', ' '),
        r.id,
        `${r.gatewayName} ${r.methodCode}`,
        moneyString(r.amount),
        r.status,
      ]),
      footer: [`Deposits: ${rows.length}`, `Total paid: ${this.opts.currency} ${paid.toFixed(2)}`],
    });
    return { filename: `deposits_${now.toISOString().slice(0, 10)}.pdf`, pdf };
  }
}

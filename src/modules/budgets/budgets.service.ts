import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { dec, isMoneyInput, moneyInputRule, moneyString, type Decimal } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import { defineJob } from '../../platform/queue/queue.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';
import type { NotificationContent, NotificationKind } from '../notifications/index.js';
import type { Budget, BudgetAlert, BudgetsRepository } from './budgets.repository.js';
import { DEFAULT_BUDGET_THRESHOLDS, DEFAULT_RUNWAY_ALERT_DAYS } from './budgets.tables.js';

/** At most this many thresholds per budget. */
export const MAX_BUDGET_THRESHOLDS = 10;
/** A threshold is a whole percentage from 1 to this (a budget may be overrun: 150 % warns at half again). */
export const MAX_BUDGET_THRESHOLD = 1000;
const PAGE = 200;

/**
 * What the budget reads of an account's spend: the charging module's usage view, the figures the
 * console's home page shows (month_to_date: charged this calendar month, prepaid hours and the
 * postpaid accrual alike; runway_hours: whole hours the balance lasts at the current hourly cost).
 */
export interface SpendReader {
  usageOf(customerId: number): Promise<{ billing_type: string; current_balance: string; month_to_date: string; runway_hours: number | null }>;
  /** what was charged for the hours of the UTC month starting at `month` (a month that has ended) */
  chargedInMonth(customerId: number, month: Date): Promise<string>;
}

/** The in-app notifications port (the notifications module). */
export interface BudgetNotifier {
  notify(customerId: number, kind: NotificationKind, content: NotificationContent, tx: Executor): Promise<boolean>;
}

export interface BudgetInput {
  monthly_amount: number | null;
  thresholds?: number[] | undefined;
  runway_alert_days?: number | null | undefined;
}

export interface BudgetState {
  budget: Budget | undefined;
  month: string;
  spent: string;
  billingType: string;
  runwayHours: number | null;
  crossed: BudgetAlert[];
}

/** The first day of `now`'s calendar month (UTC), as the `month` column holds it. */
export function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/**
 * For this long into a month the month before is evaluated too: its last hours are charged after
 * it ended (the last one at five past midnight, later when the charge catches up missed hours).
 */
export const CLOSING_MONTH_MS = 24 * 3_600_000;

/** The month just ended, while its last hours may still be charged: its start, or null. */
export function closingMonth(now: Date): Date | null {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  if (now.getTime() - start >= CLOSING_MONTH_MS) return null;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
}

/**
 * Spend alerts: a monthly budget with percentage thresholds (each notifies once per calendar
 * month), and for prepaid accounts a runway alert (once per incident: again only after the runway
 * recovered). Evaluated after each hourly charge (the charging module's after-charging flow) and by
 * an hourly job of its own, account by account: each account's evaluation holds its budget row
 * locked, and the (account, month, threshold) key and the incident's conditional update make a
 * repeated run, or a second worker, a no-op. During the first day of a month the month just ended
 * is evaluated as well, so the crossing its last charged hours made is notified in its own month.
 */
export class BudgetsService {
  readonly evaluateJob = defineJob<object>({
    name: 'budgets.evaluate',
    // after the hourly charge (five past) has run its own evaluation: this one catches what a failed one missed
    schedule: '35 * * * *',
    description: "Checks every account's monthly budget thresholds and prepaid runway alert, and notifies the ones crossed (also done after each hourly charge)",
    retryLimit: 2,
    handler: async (_p, ctx) => {
      const r = await this.evaluateAll();
      if (r.thresholds + r.runwayAlerts > 0) ctx.log.info(r, 'budget alerts sent');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: BudgetsRepository,
    private readonly spend: SpendReader,
    private readonly notifier: BudgetNotifier,
    private readonly webhooks: WebhookEmitter,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly currency: string,
  ) {}

  /** GET /api/billing/budget: the settings (defaults before the first PUT) and this month's figures. */
  async get(customerId: number): Promise<BudgetState> {
    const now = this.clock.now();
    const usage = await this.spend.usageOf(customerId);
    const month = monthOf(now);
    return {
      budget: await this.repo.find(this.db, customerId),
      month,
      spent: usage.month_to_date,
      billingType: usage.billing_type,
      runwayHours: usage.runway_hours,
      crossed: await this.repo.crossings(this.db, customerId, month),
    };
  }

  /** PUT /api/billing/budget */
  async put(customerId: number, input: BudgetInput): Promise<BudgetState> {
    const errors: FieldError[] = [];
    if (input.monthly_amount !== null && !isMoneyInput(input.monthly_amount, true)) errors.push({ field: 'monthly_amount', message: `null, or ${moneyInputRule(true).replace(/^must be /, '')}` });
    const thresholds = [...(input.thresholds ?? DEFAULT_BUDGET_THRESHOLDS)].sort((a, b) => a - b);
    if (new Set(thresholds).size !== thresholds.length) errors.push({ field: 'thresholds', message: 'must not repeat a percentage' });
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    const runwayAlertDays = input.runway_alert_days === undefined ? DEFAULT_RUNWAY_ALERT_DAYS : input.runway_alert_days;
    await this.db.transaction(async (tx) => {
      const before = await this.repo.find(tx, customerId, { forUpdate: true });
      await this.repo.save(tx, {
        customerId,
        monthlyAmount: input.monthly_amount === null ? null : moneyString(input.monthly_amount),
        thresholds,
        runwayAlertDays,
        updatedAt: this.clock.now(),
      });
      // a runway alert switched off ends its incident: switched on again, the next drop notifies
      if (before?.runwayAlertSince && runwayAlertDays === null) await this.repo.closeRunwayIncident(tx, customerId);
    });
    return this.get(customerId);
  }

  /** DELETE /api/billing/budget: no more spend alerts for the account. */
  async remove(customerId: number): Promise<void> {
    if (!(await this.repo.remove(this.db, customerId))) throw new NotFoundError('Budget');
  }

  /** The charging module's after-charging listener (src/flows/hourly-charged.ts): never fails the charge. */
  async afterCharging(): Promise<void> {
    try {
      await this.evaluateAll();
    } catch (err) {
      this.log.error({ err }, 'budget evaluation after the hourly charge failed: the hourly budgets job retries it');
    }
  }

  /** Evaluates every account with a budget; one account's failure is logged and the others go on. */
  async evaluateAll(): Promise<{ accounts: number; thresholds: number; runwayAlerts: number; failed: number }> {
    const out = { accounts: 0, thresholds: 0, runwayAlerts: 0, failed: 0 };
    for (let after = 0; ; ) {
      const ids = await this.repo.customerIdsAfter(this.db, after, PAGE);
      for (const id of ids) {
        try {
          const r = await this.evaluate(id);
          out.accounts++;
          out.thresholds += r.crossed.length;
          if (r.runwayAlert) out.runwayAlerts++;
        } catch (err) {
          out.failed++;
          this.log.error({ err, customerId: id }, 'budget evaluation failed for an account');
        }
      }
      if (ids.length < PAGE) break;
      after = ids[ids.length - 1]!;
    }
    if (out.failed > 0) throw new Error(`budget evaluation failed for ${out.failed} account(s)`);
    return out;
  }

  /**
   * Evaluates one account: the thresholds newly crossed (this month's, and during the first day of
   * a month those the month just ended reached with its last hours), and whether a runway incident
   * opened.
   */
  async evaluate(customerId: number): Promise<{ crossed: number[]; runwayAlert: boolean }> {
    let usage: Awaited<ReturnType<SpendReader['usageOf']>>;
    const now = this.clock.now();
    const ended = closingMonth(now);
    let endedSpent: string | null = null;
    try {
      usage = await this.spend.usageOf(customerId);
      if (ended) endedSpent = await this.spend.chargedInMonth(customerId, ended);
    } catch (err) {
      if (err instanceof NotFoundError) return { crossed: [], runwayAlert: false };
      throw err;
    }
    const months: MonthSpend[] = [{ month: monthOf(now), current: true, spent: dec(usage.month_to_date) }];
    if (ended && endedSpent !== null) months.unshift({ month: monthOf(ended), current: false, spent: dec(endedSpent) });
    return this.db.transaction(async (tx) => {
      const b = await this.repo.find(tx, customerId, { forUpdate: true });
      if (!b) return { crossed: [], runwayAlert: false };
      const crossings: { month: MonthSpend; thresholds: number[] }[] = [];
      for (const m of months) {
        // a budget saved after the month ended was not that month's budget
        if (!m.current && b.updatedAt.getTime() >= Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) continue;
        const thresholds = await this.recordCrossings(tx, b, customerId, m, now);
        if (thresholds.length > 0) crossings.push({ month: m, thresholds });
      }
      const crossed = crossings.flatMap((c) => c.thresholds);
      let runwayAlert = false;
      const watched = usage.billing_type === 'PREPAID' && b.runwayAlertDays !== null;
      const below = watched && usage.runway_hours !== null && usage.runway_hours < b.runwayAlertDays! * 24;
      if (below) runwayAlert = await this.repo.openRunwayIncident(tx, customerId, now);
      else if (b.runwayAlertSince !== null) await this.repo.closeRunwayIncident(tx, customerId);
      if (crossed.length === 0 && !runwayAlert) return { crossed, runwayAlert };

      const contact = await this.repo.contact(tx, customerId);
      const money = (v: string) => displayMoney(v, this.currency);
      const mails: { template: string; subject: string; lines: string[] }[] = [];
      for (const { month: m, thresholds } of crossings) {
        const ym = m.month.slice(0, 7);
        const charges = m.current ? "This month's charges" : `The charges for ${ym}`;
        for (const t of thresholds) {
          const title = m.current ? `You have spent ${t}% of your monthly budget` : `You spent ${t}% of your monthly budget in ${ym}`;
          const body = `${charges} are ${money(m.spent.toFixed(2))}, ${t}% or more of your ${money(b.monthlyAmount!)} budget for ${ym}.`;
          await this.notifier.notify(customerId, 'BUDGET_THRESHOLD', { title, body, reference: { type: 'budget_threshold', id: `${ym}:${t}` } }, tx);
          await this.webhooks.emit(tx, {
            customerId,
            type: 'budget.threshold_crossed',
            data: { month: ym, threshold_percent: t, budget: exactNumber(dec(b.monthlyAmount!).toFixed(2)), spent: exactNumber(m.spent.toFixed(2)), currency: this.currency },
          });
        }
        // one mail per month evaluated, naming the highest threshold reached (a budget set below the spend crosses several at once)
        const top = thresholds[thresholds.length - 1]!;
        mails.push({
          template: 'budget_threshold',
          subject: m.current ? `You have spent ${top}% of your monthly budget` : `You spent ${top}% of your monthly budget in ${ym}`,
          lines: [
            `${m.current ? `This month's charges (${ym})` : `The charges for ${ym}`} are ${money(m.spent.toFixed(2))}: ${top}% or more of your monthly budget of ${money(b.monthlyAmount!)}.`,
            'You can see what is running and change the budget under Billing in your account.',
          ],
        });
      }
      if (runwayAlert) {
        const hours = usage.runway_hours!;
        const days = Math.floor(hours / 24);
        const lasts = days >= 1 ? `about ${days} day${days === 1 ? '' : 's'}` : `about ${hours} hour${hours === 1 ? '' : 's'}`;
        const title = `Your balance lasts ${lasts} at the current rate`;
        const body = `Your balance is ${money(usage.current_balance)}; at what your running resources cost now it lasts ${lasts}, less than the ${b.runwayAlertDays} days you asked to be warned at. Top up your wallet to keep them running.`;
        await this.notifier.notify(customerId, 'RUNWAY_ALERT', { title, body, reference: { type: 'budget_runway', id: now.toISOString() } }, tx);
        await this.webhooks.emit(tx, {
          customerId,
          type: 'budget.runway_low',
          data: { runway_hours: hours, alert_days: b.runwayAlertDays, current_balance: exactNumber(dec(usage.current_balance).toFixed(2)), currency: this.currency },
        });
        mails.push({ template: 'budget_runway', subject: title, lines: [body] });
      }
      if (contact?.allow_billing_reminder) {
        for (const m of mails) await this.mailer.queueMail(contact.email, noticeMail({ ...m, lines: [`Hello ${contact.first_name},`, ...m.lines] }), tx);
      }
      return { crossed, runwayAlert };
    });
  }

  /** Records the thresholds of `b` the month's spend reached; those newly recorded (this run won them), lowest first. */
  private async recordCrossings(tx: Executor, b: Budget, customerId: number, m: MonthSpend, now: Date): Promise<number[]> {
    if (b.monthlyAmount === null) return [];
    const amount = dec(b.monthlyAmount);
    const won: number[] = [];
    for (const t of [...b.thresholds].sort((x, y) => x - y)) {
      if (m.spent.times(100).lt(amount.times(t))) break;
      if (await this.repo.recordCrossing(tx, { customerId, month: m.month, threshold: t, budget: b.monthlyAmount, spent: moneyString(m.spent), crossedAt: now })) won.push(t);
    }
    return won;
  }
}

interface MonthSpend {
  /** the first day of the month, as the `month` column holds it */
  month: string;
  /** the month now running (false: the one just ended) */
  current: boolean;
  spent: Decimal;
}

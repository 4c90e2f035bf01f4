import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { dec, moneyJson, moneyString } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';
import type { AfterCharging } from './charging.service.js';
import { SUSPEND_BALANCE, type ChargingSettings, type SuspensionRepository } from './suspension.repository.js';

/**
 * The port compute (and later networks, storage) implements: stop or start what a customer runs.
 * Called from a job, outside any transaction; both must be idempotent (the job retries).
 */
export interface ResourceSuspender {
  suspendCustomer(customerId: number, reason: string): Promise<void>;
  resumeCustomer(customerId: number): Promise<void>;
}

const BATCH = 500;

/** The kinds of in-app notification charging sends (beside its mails). */
export type ChargingNoticeKind = 'INVOICE_CREATED' | 'INVOICE_PAID' | 'INVOICE_DUE_SOON' | 'INVOICE_OVERDUE' | 'SUSPENDED' | 'RESUMED' | 'LOW_BALANCE' | 'RUNWAY_WARNING';

export interface ChargingNotice {
  customerId: number;
  kind: ChargingNoticeKind;
  title: string;
  body: string;
  reference: { type: string; id: string };
}

/**
 * In-app notifications (the notifications module's notifyMany, wired in container.ts): every
 * event that mails the customer also notifies them, in the same transaction, one statement for
 * a batch of events.
 */
export interface ChargingNotifier {
  notifyMany(items: ChargingNotice[], tx: Executor): Promise<unknown>;
}


/** The notice of suspensions that began at `at` (reference: the suspension's start). */
export function suspendedNotice(customerId: number, at: Date, body: string): ChargingNotice {
  return { customerId, kind: 'SUSPENDED', title: 'Your resources are suspended', body, reference: { type: 'suspension', id: at.toISOString() } };
}

/** The notice of a suspension lifted at `at`. */
export function resumedNotice(customerId: number, at: Date): ChargingNotice {
  return {
    customerId,
    kind: 'RESUMED',
    title: 'Your account is no longer suspended',
    body: 'The suspension was lifted: the resources that were running start again.',
    reference: { type: 'resumption', id: at.toISOString() },
  };
}

/**
 * Suspension of prepaid customers below zero (docs/decisions.md §5) and its notices. The customer row
 * (suspended_at, suspend_reason) is the truth; `charging.apply-suspension` makes the resources
 * match it through the ResourceSuspender, outside the transaction, as often as needed.
 */
export class SuspensionService implements AfterCharging {
  readonly applyJob = defineJob<{ customerId: number }>({
    name: 'charging.apply-suspension',
    queue: 'charging-suspension',
    description: "Stops or starts a customer's resources to match its suspension state",
    retryLimit: 10,
    handler: ({ customerId }) => this.apply(customerId),
  });

  readonly sweepJob = defineJob<object>({
    name: 'charging.suspension-sweep',
    queue: 'charging-suspension',
    schedule: '*/10 * * * *',
    description: 'Suspends prepaid customers below zero and resumes recovered ones (the warnings go out after each hourly charge)',
    handler: async (_p, ctx) => {
      const r = await this.sweep({ notices: false });
      if (r.suspended + r.resumed + r.notices > 0) ctx.log.info(r, 'suspension sweep');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: SuspensionRepository,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly currency: string,
    private readonly webhooks: WebhookEmitter,
    /** in-app notifications of suspensions, resumptions and warnings */
    private readonly notifier: ChargingNotifier,
    /** what suspends and resumes a customer's resources (src/flows/customer-suspension.ts) */
    private readonly suspender: ResourceSuspender,
  ) {}

  /** The notifier, for the postpaid services' own notices (one wiring for the module). */
  get notices(): ChargingNotifier {
    return this.notifier;
  }

  settings(ex: Executor = this.db): Promise<ChargingSettings> {
    return this.repo.settings(ex);
  }

  async afterCharging(): Promise<void> {
    await this.sweep();
  }

  /** Suspends and resumes; with `notices` (after each charge) also sends the runway and low-balance warnings. */
  async sweep(opts: { notices?: boolean } = {}): Promise<{ suspended: number; resumed: number; notices: number }> {
    const now = this.clock.now();
    let suspended = 0;
    let resumed = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.suspendNegative(tx, now, BATCH);
        await this.webhooks.emitMany(tx, rows.map((c) => ({ customerId: c.id, type: 'account.suspended' as const, data: { reason: SUSPEND_BALANCE } })));
        const notices: ChargingNotice[] = [];
        for (const c of rows) {
          await this.queue.send(this.applyJob, { customerId: c.id }, { tx });
          if (await this.repo.recordNotice(tx, c.id, 'suspended', now.toISOString(), now)) {
            notices.push(
              suspendedNotice(c.id, now, `Your balance is ${this.currency} ${moneyString(c.current_balance)}, below zero, so your resources were suspended. Top up: they start again once the balance is back at zero or more.`),
            );
            await this.mailer.queueMail(
              c.email,
              noticeMail({
                template: 'billing_suspended',
                subject: 'Your resources are suspended: balance below zero',
                lines: [
                  `Hello ${c.first_name},`,
                  `Your balance is ${this.currency} ${moneyString(c.current_balance)}, below zero, so your resources were suspended at ${now.toISOString()}.`,
                  'Top up your wallet: once the balance is back at zero or more, they start again automatically.',
                ],
              }),
              tx,
            );
          }
        }
        await this.notifier.notifyMany(notices, tx);
        return rows.length;
      });
      suspended += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const rows = await this.repo.resumeRecovered(tx, now, BATCH);
        await this.webhooks.emitMany(tx, rows.map((c) => ({ customerId: c.id, type: 'account.resumed' as const, data: {} })));
        for (const c of rows) await this.queue.send(this.applyJob, { customerId: c.id }, { tx });
        await this.notifier.notifyMany(rows.map((c) => resumedNotice(c.id, now)), tx);
        return rows.length;
      });
      resumed += n;
      if (n < BATCH) break;
    }
    // the runway only changes with charges and credits: once an hour is enough (it reads every running meter)
    const notices = opts.notices === false ? 0 : await this.sendWarnings(now);
    return { suspended, resumed, notices };
  }

  /**
   * A credit landed (top-up paid): if the customer is suspended for its balance and the balance
   * is back at zero or more, lift the suspension in this transaction and start the resources
   * after it commits.
   */
  async maybeResume(tx: Executor, customerId: number): Promise<boolean> {
    return (await this.maybeResumeMany(tx, [customerId])) > 0;
  }

  /** maybeResume for several customers in one statement (a batch of credited top-ups); how many resumed. */
  async maybeResumeMany(tx: Executor, customerIds: number[]): Promise<number> {
    const ids = [...new Set(customerIds)];
    if (ids.length === 0) return 0;
    const now = this.clock.now();
    const rows = await this.repo.resumeRecovered(tx, now, ids.length, ids);
    await this.webhooks.emitMany(tx, rows.map((c) => ({ customerId: c.id, type: 'account.resumed' as const, data: {} })));
    for (const c of rows) await this.queue.send(this.applyJob, { customerId: c.id }, { tx });
    await this.notifier.notifyMany(rows.map((c) => resumedNotice(c.id, now)), tx);
    return rows.length;
  }

  /** Makes the resources match the customer row (the job; idempotent). */
  async apply(customerId: number): Promise<void> {
    const state = await this.repo.suspensionState(this.db, customerId);
    if (!state) return;
    if (state.suspendedAt) await this.suspender.suspendCustomer(customerId, state.reason ?? SUSPEND_BALANCE);
    else await this.suspender.resumeCustomer(customerId);
  }

  private async sendWarnings(now: Date): Promise<number> {
    const s = await this.repo.settings(this.db);
    let sent = 0;
    // The lower threshold first: a customer under both gets the low-balance notice only once per episode.
    for (const [kind, hours] of [
      ['low_balance', s.lowBalanceWarningHours],
      ['runway', s.runwayWarningHours],
    ] as const) {
      if (hours <= 0) continue;
      for (;;) {
        const rows = await this.repo.dueNotices(this.db, now, kind, hours, BATCH);
        await this.db.transaction(async (tx) => {
          const notices: ChargingNotice[] = [];
          for (const c of rows) {
            if (!(await this.repo.recordNotice(tx, c.id, kind, c.episode, now))) continue;
            // the low-balance notice says everything the runway warning would
            if (kind === 'low_balance') await this.repo.recordNotice(tx, c.id, 'runway', c.episode, now);
            const runway = c.burn && dec(c.burn).gt(0) ? dec(c.current_balance).div(c.burn).floor().toString() : '∞';
            notices.push({
              customerId: c.id,
              kind: kind === 'low_balance' ? 'LOW_BALANCE' : 'RUNWAY_WARNING',
              title: kind === 'low_balance' ? 'Low balance: your resources will be suspended soon' : `Your balance lasts about ${runway} more hours`,
              body: `Your balance is ${displayMoney(c.current_balance, this.currency)}; your running resources cost ${displayMoney(c.burn ?? 0, this.currency)} an hour, so it lasts about ${runway} more hours. Top up your wallet to keep them running.`,
              reference: { type: 'billing_notice', id: c.episode },
            });
            await this.mailer.queueMail(
              c.email,
              noticeMail({
                template: kind === 'low_balance' ? 'billing_low_balance' : 'billing_runway',
                subject: kind === 'low_balance' ? 'Low balance: your resources will be suspended soon' : `Your balance lasts about ${runway} more hours`,
                lines: [
                  `Hello ${c.first_name},`,
                  `Your balance is ${this.currency} ${moneyString(c.current_balance)}; your running resources cost ${this.currency} ${moneyJson(c.burn)} an hour, so it lasts about ${runway} more hours.`,
                  kind === 'low_balance'
                    ? 'When it falls below zero your resources are suspended. Top up your wallet to keep them running.'
                    : 'Top up your wallet in time to keep your resources running.',
                ],
              }),
              tx,
            );
            if (kind === 'low_balance') await this.webhooks.emit(tx, { customerId: c.id, type: 'balance.low', data: { current_balance: exactNumber(dec(c.current_balance).toFixed(2)), currency: this.currency, threshold: null, hours_left: runway === '∞' ? null : Number(runway) } });
            sent++;
          }
          await this.notifier.notifyMany(notices, tx);
        });
        if (rows.length < BATCH) break;
      }
    }
    return sent;
  }
}

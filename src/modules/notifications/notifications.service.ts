import type { AnyColumn, SQL } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { dec } from '../../platform/money.js';
import { displayMoney } from '../../platform/money-display.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import type { NotificationRow, NotificationsRepository } from './notifications.repository.js';
import type { NotificationKind } from './notifications.tables.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';

export interface NotificationContent {
  title: string;
  body: string;
  /** what it is about; (kind, reference) is notified at most once per customer */
  reference: { type: string; id: string | number };
}

/** current_balance below this (in the platform currency) after a debit notifies LOW_BALANCE once per crossing. */
export const LOW_BALANCE_THRESHOLD = '50000.00';

/**
 * Customer notifications. `notify` joins the caller's transaction (ambient or given), so a
 * notification exists exactly when the event it tells about does; repeats of one event are no-ops.
 * Other modules call it through index.ts: billing (new invoices, credited top-ups), wallet (low
 * balance), charging (postpaid invoices, warnings, suspension and resumption), tickets (staff
 * replies), announcements (through the fan-out job).
 */
export class NotificationsService {
  constructor(
    private readonly db: Database,
    private readonly repo: NotificationsRepository,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly options: { lowBalanceThreshold: string; currency: string },
    private readonly webhooks: WebhookEmitter,
  ) {}

  /** Fans an announcement out to every active customer, in a job (one INSERT … SELECT). */
  readonly announceJob = defineJob<{ announcementId: number; title: string; body: string }>({
    name: 'notifications.announce',
    policy: 'short',
    description: 'Notifies every active customer of a published announcement (once per announcement and customer)',
    handler: async ({ announcementId, title, body }, ctx) => {
      const n = await this.repo.insertForAllCustomers(this.db, {
        kind: 'ANNOUNCEMENT',
        title,
        body,
        referenceType: 'announcement',
        referenceId: String(announcementId),
        createdAt: this.clock.now(),
      });
      ctx.log.info({ announcementId, notified: n }, 'announcement notifications created');
    },
  });

  /** Notifies one customer; false when this event was already notified. */
  async notify(customerId: number, kind: NotificationKind, content: NotificationContent, tx: Executor = this.db): Promise<boolean> {
    const row = await this.repo.insert(tx, {
      customerId,
      kind,
      title: content.title.slice(0, 200),
      body: content.body.slice(0, 2000),
      referenceType: content.reference.type,
      referenceId: String(content.reference.id),
      createdAt: this.clock.now(),
    });
    return row !== undefined;
  }

  /**
   * Notifies several customers (or one customer of several events) in one INSERT, in the caller's
   * transaction: what a batch of events (a batch of credited top-ups, a run of the overdue sweep)
   * uses, so the notifications cost one statement, not one per event. Returns how many were new.
   */
  async notifyMany(items: (NotificationContent & { customerId: number; kind: NotificationKind })[], tx: Executor = this.db): Promise<number> {
    const now = this.clock.now();
    return this.repo.insertMany(
      tx,
      items.map((n) => ({
        customerId: n.customerId,
        kind: n.kind,
        title: n.title.slice(0, 200),
        body: n.body.slice(0, 2000),
        referenceType: n.reference.type,
        referenceId: String(n.reference.id),
        createdAt: now,
      })),
    );
  }

  /** Queues the announcement fan-out in the caller's transaction (it runs once that commits). */
  async announce(announcement: { id: number; title: string; message: string }, tx: Executor = this.db): Promise<void> {
    await this.queue.send(
      this.announceJob,
      { announcementId: announcement.id, title: announcement.title.slice(0, 200), body: announcement.message.slice(0, 280) },
      { tx, singletonKey: `announcement:${announcement.id}` },
    );
  }

  /**
   * The wallet's balance listener: a debit that takes current_balance from at least the
   * threshold to below it notifies LOW_BALANCE (keyed by the ledger entry, so once per crossing).
   */
  async balanceChanged(tx: Executor, change: { customerId: number; before: string; after: string; entryId: number }): Promise<void> {
    const threshold = dec(this.options.lowBalanceThreshold);
    if (!(dec(change.before).gte(threshold) && dec(change.after).lt(threshold))) return;
    await this.notify(
      change.customerId,
      'LOW_BALANCE',
      {
        title: 'Your balance is running low',
        body: `Your balance is ${displayMoney(change.after, this.options.currency)}, below ${displayMoney(threshold, this.options.currency)}. Top up to keep your resources running.`,
        reference: { type: 'balance_log', id: change.entryId },
      },
      tx,
    );
    await this.webhooks.emit(tx, { customerId: change.customerId, type: 'balance.low', data: { current_balance: exactNumber(change.after), currency: this.options.currency, threshold: exactNumber(threshold.toFixed(2)), hours_left: null } });
  }

  /** The customers module's UnreadCounter port (`unread_count` of GET /api/inf). */
  unreadCount(customerId: number): Promise<number> {
    return this.repo.unreadCount(this.db, customerId);
  }

  /** The port's subquery form: GET /api/inf carries the count in the customer's own read. */
  unreadCountOf(customerId: AnyColumn): SQL<number> {
    return this.repo.unreadCountOf(customerId);
  }

  list(customerId: number, p: PageRequest, unreadOnly: boolean): Promise<Page<NotificationRow>> {
    return this.repo.list(this.db, customerId, p, unreadOnly);
  }

  async markRead(customerId: number, id: number): Promise<NotificationRow> {
    const row = await this.repo.markRead(this.db, customerId, id, this.clock.now());
    if (!row) throw new NotFoundError('Notification');
    return row;
  }

  async markAllRead(customerId: number): Promise<{ marked: number; unreadCount: number }> {
    const marked = await this.repo.markAllRead(this.db, customerId, this.clock.now());
    return { marked, unreadCount: await this.repo.unreadCount(this.db, customerId) };
  }
}

import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

export const NOTIFICATION_KINDS = [
  'INVOICE_CREATED',
  'LOW_BALANCE',
  'SUSPENDED',
  'TICKET_REPLY',
  'ANNOUNCEMENT',
  'TOPUP_CREDITED',
  'INVOICE_PAID',
  'INVOICE_DUE_SOON',
  'INVOICE_OVERDUE',
  'RESUMED',
  'RUNWAY_WARNING',
  'WEBHOOK_DISABLED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * A customer's notifications (the `unread_count` of GET /api/inf). One business event lands at
 * most once per customer: (customer_id, kind, reference_id) is unique, so a repeated job or a
 * retried transaction does not notify twice.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** what it is about, e.g. "ticket" / "42"; also the key that makes it unique */
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notifications_event_unique').on(t.customerId, t.kind, t.referenceType, t.referenceId),
    index('notifications_customer_idx').on(t.customerId, t.id),
    index('notifications_unread_idx').on(t.customerId).where(sql`${t.readAt} is null`),
    check('notifications_kind', sql.raw(`kind in (${NOTIFICATION_KINDS.map((k) => `'${k}'`).join(',')})`)),
  ],
);

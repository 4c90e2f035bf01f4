import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
  'VM_STAFF_ACTION',
  'BUDGET_THRESHOLD',
  'RUNWAY_ALERT',
  'ALERT_FIRED',
  'ALERT_RESOLVED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * A customer's notifications (the `unread_count` of GET /api/inf). One business event lands at
 * most once per customer: (customer_id, kind, reference_id) is unique, so a repeated job or a
 * retried transaction does not notify twice. The table is partitioned by month, so that key lives
 * in notification_keys, filled by a BEFORE INSERT trigger (drizzle/routines/notification_keys.sql)
 * that skips a notification whose key is there, as ON CONFLICT DO NOTHING would.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
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
    // partitioned by month of created_at (drizzle/0023); the event key is unique through notification_keys
    primaryKey({ columns: [t.id, t.createdAt], name: 'notifications_pkey' }),
    index('notifications_customer_idx').on(t.customerId, t.id),
    index('notifications_unread_idx').on(t.customerId).where(sql`${t.readAt} is null`),
    check('notifications_kind', sql.raw(`kind in (${NOTIFICATION_KINDS.map((k) => `'${k}'`).join(',')})`)),
  ],
);

/** The (customer, kind, reference) of every notification: its unique key, kept outside the partitions. */
export const notificationKeys = pgTable(
  'notification_keys',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.kind, t.referenceType, t.referenceId], name: 'notification_keys_pkey' })],
);

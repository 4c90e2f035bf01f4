import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, index } from 'drizzle-orm/pg-core';

/** Every mail the service sends passes through here; without SMTP it stays here (and in the log). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    template: text('template').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(sql`0`),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status)],
);

import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, index } from 'drizzle-orm/pg-core';

/**
 * Every mail the service sends passes through here. A mail that carries a secret (`sensitive`:
 * codes, links, generated passwords) loses its subject and bodies as soon as it is delivered
 * (sent, or logged without SMTP); every other body goes after MAIL_BODY_RETENTION_DAYS and the
 * row after MAIL_OUTBOX_RETENTION_DAYS (the mail.prune job).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    template: text('template').notNull(),
    sensitive: boolean('sensitive').notNull().default(false),
    /** when subject and bodies were wiped */
    scrubbedAt: timestamp('scrubbed_at', { withTimezone: true }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(sql`0`),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status), index('mail_outbox_created_idx').on(t.createdAt)],
);

import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../admins/admins.tables.js';

export const DOCUMENT_KINDS = ['announcement', 'release_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_STATUSES = ['Draft', 'Published', 'Withdrawn'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/**
 * Announcements and release notes (docs/api.md, "Announcements and release notes"): one table, told apart by `kind`. New documents
 * are Draft; publish makes them Published (visible to customers), unpublish Withdrawn. A
 * `publish_at` in the future schedules the publication (the announcements.publish-due job).
 */
export const announcements = pgTable(
  'announcements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').$type<DocumentKind>().notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    status: text('status').$type<DocumentStatus>().notNull().default('Draft'),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdByAdminId: integer('created_by_admin_id').references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('announcements_published_idx').on(t.kind, t.publishedAt).where(sql`${t.status} = 'Published'`),
    index('announcements_due_idx').on(t.publishAt).where(sql`${t.status} <> 'Published' and ${t.publishAt} is not null`),
    check('announcements_kind', sql`${t.kind} in ('announcement','release_note')`),
    check('announcements_status', sql`${t.status} in ('Draft','Published','Withdrawn')`),
  ],
);

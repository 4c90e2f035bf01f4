import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { admins } from '../admins/admins.tables.js';
import { customers } from '../customers/customers.tables.js';

export const TICKET_STATUSES = ['Open', 'In Progress', 'Closed', 'Archived'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_EVENT_TYPES = ['NEW_TICKET', 'NEW_REPLY', 'STATUS_CHANGED', 'ASSIGNED', 'PRIORITY_CHANGED'] as const;
export type TicketEventType = (typeof TICKET_EVENT_TYPES)[number];

/** Bytes as PostgreSQL bytea (node-postgres answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array | string }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (typeof v === 'string' ? Buffer.from(v.replace(/^\\x/, ''), 'hex') : Buffer.from(v)),
});

/** A support ticket; statuses and their transitions: tickets.service.ts and docs/api.md. */
export const tickets = pgTable(
  'tickets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    title: text('title').notNull(),
    status: text('status').$type<TicketStatus>().notNull().default('Open'),
    priority: text('priority').$type<TicketPriority>().notNull().default('Medium'),
    assignedAdminId: integer('assigned_admin_id').references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    index('tickets_customer_idx').on(t.customerId, t.id),
    index('tickets_status_idx').on(t.status, t.lastMessageAt),
    check('tickets_status', sql`${t.status} in ('Open','In Progress','Closed','Archived')`),
    check('tickets_priority', sql`${t.priority} in ('Low','Medium','High')`),
  ],
);

/** The conversation: one row per message, from the customer or from staff. */
export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
    senderType: text('sender_type').$type<'customer' | 'admin'>().notNull(),
    senderCustomerId: integer('sender_customer_id').references(() => customers.id),
    senderAdminId: integer('sender_admin_id').references(() => admins.id),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('ticket_messages_ticket_idx').on(t.ticketId, t.id),
    check(
      'ticket_messages_sender',
      sql`(${t.senderType} = 'customer' and ${t.senderCustomerId} is not null and ${t.senderAdminId} is null) or (${t.senderType} = 'admin' and ${t.senderAdminId} is not null and ${t.senderCustomerId} is null)`,
    ),
  ],
);

/**
 * Files attached to a message. Kept in the database (bytea), never on a path a client names;
 * the type was checked against the file's own bytes, and downloads are served as attachments.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => ticketMessages.id),
    /** the order the files were sent in */
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ticket_attachments_message_idx').on(t.messageId), index('ticket_attachments_ticket_idx').on(t.ticketId)],
);

/**
 * The ticket stream's log: every message of GET /api/backoffice/ticket/sse/stream, written in the
 * transaction of its change. Ids are assigned in commit order (an advisory lock), so a client
 * resuming from Last-Event-ID misses nothing. Pruned after TICKET_EVENT_RETENTION_DAYS.
 */
export const ticketEvents = pgTable(
  'ticket_events',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    type: text('type').$type<TicketEventType>().notNull(),
    ticketId: integer('ticket_id').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  // partitioned by month of created_at (drizzle/0023)
  (t) => [primaryKey({ columns: [t.id, t.createdAt], name: 'ticket_events_pkey' }), index('ticket_events_created_idx').on(t.createdAt)],
);

/** One row: the highest event id pruned; a Last-Event-ID below it gets a `reset`. */
export const ticketEventHorizon = pgTable(
  'ticket_event_horizon',
  {
    id: integer('id').primaryKey(),
    prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull(),
  },
  (t) => [check('ticket_event_horizon_one_row', sql`${t.id} = 1`)],
);

import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { vms } from './compute.tables.js';

/**
 * A serial console session of a VM, from its ticket to its end. The ticket (only its SHA-256 is
 * kept) is bound to the VM, the owner and who asked (the customer's session or API token, or a
 * staff member's session); it opens one session before `expires_at`, once: `opened_at` is set by
 * the one UPDATE that finds it unused. A live session refreshes `seen_at`; one whose process died
 * without closing it stops counting against the limits once `seen_at` is old.
 */
export const vmConsoleSessions = pgTable(
  'vm_console_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** a staff member's session (the customer is told); null for the customer's own */
    adminId: integer('admin_id'),
    /** the session id (or `token:<id>`) of who asked for the ticket: only it may open the console */
    requesterSession: text('requester_session').notNull(),
    ticketHash: text('ticket_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeReason: text('close_reason'),
  },
  (t) => [
    uniqueIndex('vm_console_sessions_ticket_unique').on(t.ticketHash),
    index('vm_console_sessions_live_vm_idx').on(t.vmId).where(sql`${t.openedAt} is not null and ${t.closedAt} is null`),
    index('vm_console_sessions_live_customer_idx').on(t.customerId).where(sql`${t.openedAt} is not null and ${t.closedAt} is null`),
  ],
);

export type VmConsoleSession = typeof vmConsoleSessions.$inferSelect;

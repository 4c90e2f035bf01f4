import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Append-only record of every backoffice write, customer write (the activity log) and security
 * event (a trigger refuses UPDATE, DELETE and TRUNCATE: drizzle/routines/audit_append_only.sql).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    /** admin | customer | system | anonymous */
    actorType: text('actor_type').notNull(),
    actorId: integer('actor_id'),
    /** For a customer actor: the person (account member) who acted, when it is not the account itself. */
    memberId: integer('member_id'),
    /** Set when an admin acts as a customer (impersonation). */
    impersonatorAdminId: integer('impersonator_admin_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // partitioned by month of created_at (drizzle/0023)
    primaryKey({ columns: [t.id, t.createdAt], name: 'audit_logs_pkey' }),
    index('audit_logs_created_idx').on(t.createdAt),
    // with the id: an actor's entries newest first (a customer's activity log) straight from the index
    index('audit_logs_actor_idx').on(t.actorType, t.actorId, t.id),
    index('audit_logs_target_idx').on(t.targetType, t.targetId),
    index('audit_logs_action_idx').on(t.action),
  ],
);

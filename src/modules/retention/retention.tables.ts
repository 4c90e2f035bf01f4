import { sql } from 'drizzle-orm';
import { check, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

/**
 * How long history is kept (one row, id 1; the defaults apply until staff change them):
 * usage records older than `usage_raw_months` whole months are rolled up per meter and day
 * (usage_daily) and their partitions dropped; audit log months older than `audit_log_months` are
 * dropped, never when it is null (the default). The wallet ledger is never dropped.
 */
export const retentionSettings = pgTable(
  'retention_settings',
  {
    id: integer('id').primaryKey().default(sql`1`),
    usageRawMonths: integer('usage_raw_months').notNull().default(sql`3`),
    auditLogMonths: integer('audit_log_months'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('retention_settings_singleton', sql`${t.id} = 1`),
    // the postpaid invoice of a month reads its usage records on the 1st of the next month
    check('retention_settings_usage_months', sql`${t.usageRawMonths} between 2 and 120`),
    check('retention_settings_audit_months', sql`${t.auditLogMonths} is null or ${t.auditLogMonths} between 12 and 240`),
  ],
);

import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The company that issues the receipts and invoices: exactly one row, id 1, written by the first
 * save (until then the documents name the application instead).
 */
export const companyDetails = pgTable(
  'company_details',
  {
    id: integer('id').primaryKey().default(sql`1`),
    legalName: text('legal_name').notNull(),
    address: text('address').notNull(),
    taxNumber: text('tax_number'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('company_details_singleton', sql`${t.id} = 1`)],
);

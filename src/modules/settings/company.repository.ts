import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { companyDetails } from './company.tables.js';

export type CompanyDetails = typeof companyDetails.$inferSelect;

export class CompanyRepository {
  async get(ex: Executor, opts: { forUpdate?: boolean } = {}): Promise<CompanyDetails | undefined> {
    const q = ex.select().from(companyDetails).where(eq(companyDetails.id, 1));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async save(ex: Executor, row: Omit<typeof companyDetails.$inferInsert, 'id'>): Promise<CompanyDetails> {
    const [saved] = await ex
      .insert(companyDetails)
      .values({ id: 1, ...row })
      .onConflictDoUpdate({ target: companyDetails.id, set: row })
      .returning();
    return saved!;
  }
}

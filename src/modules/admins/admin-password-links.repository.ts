import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { adminPasswordLinks } from './admins.tables.js';

/** The one-time set-password links of staff accounts (hashes only). */
export class AdminPasswordLinksRepository {
  /** Stores a new link and ends the admin's earlier unused ones: only the latest mail works. */
  async replace(ex: Executor, row: { adminId: number; tokenHash: string; expiresAt: Date; now: Date }): Promise<void> {
    await ex
      .update(adminPasswordLinks)
      .set({ usedAt: row.now })
      .where(and(eq(adminPasswordLinks.adminId, row.adminId), isNull(adminPasswordLinks.usedAt)));
    await ex.insert(adminPasswordLinks).values({ adminId: row.adminId, tokenHash: row.tokenHash, expiresAt: row.expiresAt, createdAt: row.now });
  }

  /** Marks the live link with this hash used; its admin, or undefined when unknown, used or expired. */
  async consume(ex: Executor, tokenHash: string, now: Date): Promise<number | undefined> {
    const [row] = await ex
      .update(adminPasswordLinks)
      .set({ usedAt: now })
      .where(and(eq(adminPasswordLinks.tokenHash, tokenHash), isNull(adminPasswordLinks.usedAt), gt(adminPasswordLinks.expiresAt, now)))
      .returning({ adminId: adminPasswordLinks.adminId });
    return row?.adminId;
  }

  /** Ends the admin's unused links (the password was changed another way). */
  async endAll(ex: Executor, adminId: number, now: Date): Promise<void> {
    await ex
      .update(adminPasswordLinks)
      .set({ usedAt: now })
      .where(and(eq(adminPasswordLinks.adminId, adminId), isNull(adminPasswordLinks.usedAt)));
  }

  /** Deletes links that expired, or were used, before `before`. */
  async pruneSpent(ex: Executor, before: Date): Promise<number> {
    const rows = await ex
      .delete(adminPasswordLinks)
      .where(sql`coalesce(${adminPasswordLinks.usedAt}, ${adminPasswordLinks.expiresAt}) < ${before.toISOString()}::timestamptz`)
      .returning({ id: adminPasswordLinks.id });
    return rows.length;
  }
}

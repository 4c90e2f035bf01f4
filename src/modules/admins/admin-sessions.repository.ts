import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { admins, adminSessions } from './admins.tables.js';

export type AdminSessionRow = typeof adminSessions.$inferSelect;

export interface LiveSession {
  sessionId: string;
  adminId: number;
  mustChangePassword: boolean;
  /** the admin has TOTP 2FA on */
  twoFactorOn: boolean;
  lastAccessAt: Date;
}

export class AdminSessionsRepository {
  async insert(ex: Executor, row: typeof adminSessions.$inferInsert): Promise<void> {
    await ex.insert(adminSessions).values(row);
  }

  /** The session when it is alive: not revoked, not expired, and its admin not deleted. */
  async findLive(ex: Executor, sessionId: string, adminId: number, now: Date): Promise<LiveSession | undefined> {
    const [row] = await ex
      .select({
        sessionId: adminSessions.id,
        adminId: adminSessions.adminId,
        mustChangePassword: admins.mustChangePassword,
        twoFactorOn: sql<boolean>`${admins.totpSecretEnc} is not null`,
        lastAccessAt: adminSessions.lastAccessAt,
      })
      .from(adminSessions)
      .innerJoin(admins, eq(admins.id, adminSessions.adminId))
      .where(
        and(
          eq(adminSessions.id, sessionId),
          eq(adminSessions.adminId, adminId),
          isNull(adminSessions.revokedAt),
          gt(adminSessions.expiresAt, now),
          isNull(admins.deletedAt),
        ),
      );
    return row;
  }

  async findById(ex: Executor, sessionId: string): Promise<AdminSessionRow | undefined> {
    const [row] = await ex.select().from(adminSessions).where(eq(adminSessions.id, sessionId));
    return row;
  }

  async touch(ex: Executor, sessionId: string, now: Date): Promise<void> {
    await ex.update(adminSessions).set({ lastAccessAt: now }).where(eq(adminSessions.id, sessionId));
  }

  /** A refresh: the session's role and permissions become the admin's current ones (its end stays). */
  async refreshed(ex: Executor, sessionId: string, now: Date, roleName: string, permissions: string[]): Promise<void> {
    await ex.update(adminSessions).set({ lastAccessAt: now, roleName, permissions }).where(eq(adminSessions.id, sessionId));
  }

  async revoke(ex: Executor, sessionId: string, now: Date, reason: string): Promise<void> {
    await ex
      .update(adminSessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.revokedAt)));
  }

  /** Revokes every live session of the admin (but `exceptSessionId`); returns how many. */
  async revokeAllOf(ex: Executor, adminId: number, now: Date, reason: string, exceptSessionId?: string): Promise<number> {
    const rows = await ex
      .update(adminSessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(
        and(
          eq(adminSessions.adminId, adminId),
          isNull(adminSessions.revokedAt),
          exceptSessionId ? ne(adminSessions.id, exceptSessionId) : undefined,
        ),
      )
      .returning({ id: adminSessions.id });
    return rows.length;
  }

  /** Deletes sessions that ended (revoked or expired) before `before`. */
  async pruneEnded(ex: Executor, before: Date): Promise<number> {
    const rows = await ex
      .delete(adminSessions)
      .where(sql`coalesce(${adminSessions.revokedAt}, ${adminSessions.expiresAt}) < ${before.toISOString()}::timestamptz`)
      .returning({ id: adminSessions.id });
    return rows.length;
  }
}

import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { admins, rolePermissions, roles } from './admins.tables.js';

export type AdminRow = typeof admins.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type AdminWithRole = AdminRow & { roleName: string };


export class RolesRepository {
  async findByName(ex: Executor, name: string): Promise<RoleRow | undefined> {
    const [row] = await ex.select().from(roles).where(sql`lower(${roles.name}) = lower(${name})`);
    return row;
  }

  async insert(ex: Executor, role: typeof roles.$inferInsert): Promise<RoleRow> {
    const [row] = await ex.insert(roles).values(role).returning();
    return row!;
  }

  /** Inserts the role when missing; returns it and whether it was created now. */
  async ensure(ex: Executor, role: typeof roles.$inferInsert): Promise<{ role: RoleRow; created: boolean }> {
    const [created] = await ex.insert(roles).values(role).onConflictDoNothing().returning();
    if (created) return { role: created, created: true };
    return { role: (await this.findByName(ex, role.name))!, created: false };
  }

  async listWithCounts(ex: Executor) {
    return ex
      .select({
        id: roles.id,
        name: roles.name,
        description: roles.description,
        isBuiltin: roles.isBuiltin,
        isLocked: roles.isLocked,
        // The outer column is written out in full: drizzle renders ${roles.id} as a bare "id" in a
        // one-table select, which inside the subquery meant the admin's own id (every count was wrong).
        permissionCount: sql<number>`(select count(*)::int from ${rolePermissions} rp where rp.role_id = "roles"."id")`,
        adminCount: sql<number>`(select count(*)::int from ${admins} a where a.role_id = "roles"."id" and a.deleted_at is null)`,
      })
      .from(roles)
      .orderBy(asc(roles.id));
  }

  async permissionsOf(ex: Executor, roleId: number): Promise<string[]> {
    const rows = await ex.select({ p: rolePermissions.permission }).from(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    return rows.map((r) => r.p).sort();
  }

  /** Makes the role hold exactly `permissions`. */
  async replacePermissions(ex: Executor, roleId: number, permissions: readonly string[]): Promise<void> {
    await ex.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    if (permissions.length > 0) {
      await ex.insert(rolePermissions).values(permissions.map((permission) => ({ roleId, permission })));
    }
  }

  async addPermissions(ex: Executor, roleId: number, permissions: readonly string[]): Promise<void> {
    if (permissions.length === 0) return;
    await ex.insert(rolePermissions).values(permissions.map((permission) => ({ roleId, permission }))).onConflictDoNothing();
  }

  async removePermissionsNotIn(ex: Executor, roleId: number, keep: readonly string[]): Promise<void> {
    await ex
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, roleId), sql`${rolePermissions.permission} <> all(${sql.param([...keep])}::text[])`));
  }
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export class AdminsRepository {
  private selectWithRole(ex: Executor) {
    return ex
      .select({ admin: admins, roleName: roles.name })
      .from(admins)
      .innerJoin(roles, eq(roles.id, admins.roleId));
  }

  async findById(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}): Promise<AdminWithRole | undefined> {
    const q = this.selectWithRole(ex).where(eq(admins.id, id));
    const [row] = await (opts.forUpdate ? q.for('update', { of: admins }) : q);
    return row && { ...row.admin, roleName: row.roleName };
  }

  async findByEmail(ex: Executor, email: string): Promise<AdminWithRole | undefined> {
    const [row] = await this.selectWithRole(ex).where(sql`lower(${admins.email}) = lower(${email})`);
    return row && { ...row.admin, roleName: row.roleName };
  }

  async list(ex: Executor, limit: number, offset: number): Promise<{ items: AdminWithRole[]; total: number }> {
    const rows = await this.selectWithRole(ex).orderBy(asc(admins.id)).limit(limit).offset(offset);
    const [c] = await ex.select({ n: count() }).from(admins);
    return { items: rows.map((r) => ({ ...r.admin, roleName: r.roleName })), total: c?.n ?? 0 };
  }

  async count(ex: Executor): Promise<number> {
    const [c] = await ex.select({ n: count() }).from(admins);
    return c?.n ?? 0;
  }

  async countActiveWithRole(ex: Executor, roleId: number): Promise<number> {
    const [c] = await ex.select({ n: count() }).from(admins).where(and(eq(admins.roleId, roleId), isNull(admins.deletedAt)));
    return c?.n ?? 0;
  }

  async insert(ex: Executor, row: typeof admins.$inferInsert): Promise<AdminRow> {
    const [created] = await ex.insert(admins).values(row).returning();
    return created!;
  }

  async update(ex: Executor, id: number, set: Partial<typeof admins.$inferInsert>): Promise<void> {
    await ex.update(admins).set(set).where(eq(admins.id, id));
  }

  async emailsTaken(ex: Executor, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await ex.select({ email: admins.email }).from(admins).where(inArray(sql`lower(${admins.email})`, emails.map((e) => e.toLowerCase())));
    return rows.map((r) => r.email);
  }

  /**
   * Counts a password attempt before the password is checked, so parallel guesses cannot outrun
   * the lock. Only while the account is not locked: a new 15-minute window starts when the last
   * one is over, and the `maxFailures`-th attempt in the window locks the account until
   * `lockUntil` (`locks`). A right password undoes it with {@link releaseLoginAttempt}.
   * Refused (null) while locked.
   */
  async reserveLoginAttempt(ex: Executor, id: number, now: Date, windowStart: Date, maxFailures: number, lockUntil: Date): Promise<{ locks: boolean } | null> {
    const n = sql`(case when ${admins.firstFailedAt} is null or ${admins.firstFailedAt} < ${ts(windowStart)} then 1 else ${admins.failedLogins} + 1 end)`;
    const rows = await ex
      .update(admins)
      .set({
        failedLogins: n,
        firstFailedAt: sql`case when ${admins.firstFailedAt} is null or ${admins.firstFailedAt} < ${ts(windowStart)} then ${ts(now)} else ${admins.firstFailedAt} end`,
        lockedUntil: sql`case when ${n} >= ${maxFailures} then ${ts(lockUntil)} else null end`,
      })
      .where(and(eq(admins.id, id), sql`(${admins.lockedUntil} is null or ${admins.lockedUntil} <= ${ts(now)})`))
      .returning({ failedLogins: admins.failedLogins });
    const row = rows[0];
    return row ? { locks: row.failedLogins >= maxFailures } : null;
  }

  /**
   * Clears the failure count after a right password and holds the row lock for the rest of the
   * transaction. False while another attempt holds the account locked (`ownsLock`: the caller's
   * own attempt set the lock).
   */
  async releaseLoginAttempt(ex: Executor, id: number, now: Date, ownsLock: boolean): Promise<boolean> {
    const rows = await ex
      .update(admins)
      .set({ failedLogins: 0, firstFailedAt: null, lockedUntil: null })
      .where(and(eq(admins.id, id), ownsLock ? undefined : sql`(${admins.lockedUntil} is null or ${admins.lockedUntil} <= ${ts(now)})`))
      .returning({ id: admins.id });
    return rows.length > 0;
  }
}

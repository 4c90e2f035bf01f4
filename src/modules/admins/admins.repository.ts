import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { adminRecoveryCodes, admins, rolePermissions, roles } from './admins.tables.js';

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


export class AdminsRepository {
  private selectWithRole(ex: Executor) {
    return ex
      .select({ admin: admins, roleName: roles.name })
      .from(admins)
      .innerJoin(roles, eq(roles.id, admins.roleId));
  }

  /** The admin's role now (auth's ImpersonatorAuthority port); undefined for an unknown admin. */
  async roleOf(ex: Executor, adminId: number): Promise<number | undefined> {
    const [row] = await ex.select({ roleId: admins.roleId }).from(admins).where(eq(admins.id, adminId));
    return row?.roleId;
  }

  /** Whether the admin is not deleted, still has `roleId`, and that role holds `permission` or is locked (auth's ImpersonatorAuthority port). */
  async stillHolds(ex: Executor, adminId: number, roleId: number, permission: string): Promise<boolean> {
    const [row] = await ex
      .select({ id: admins.id })
      .from(admins)
      .innerJoin(roles, eq(roles.id, admins.roleId))
      .where(
        and(
          eq(admins.id, adminId),
          isNull(admins.deletedAt),
          eq(admins.roleId, roleId),
          sql`(${roles.isLocked} or exists (select 1 from ${rolePermissions} rp where rp.role_id = ${admins.roleId} and rp.permission = ${permission}))`,
        ),
      );
    return row !== undefined;
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

  // ---- two-factor authentication (the customers' scheme, for staff) ---------------------------

  /** Accepts a TOTP time step once: true only for the one caller that moves last_totp_step forward. */
  async consumeTotpStep(ex: Executor, id: number, step: number): Promise<boolean> {
    const rows = await ex
      .update(admins)
      .set({ lastTotpStep: step })
      .where(and(eq(admins.id, id), sql`${admins.lastTotpStep} < ${step}`))
      .returning({ id: admins.id });
    return rows.length > 0;
  }

  async activate2fa(ex: Executor, id: number, pendingEnc: string, now: Date): Promise<boolean> {
    const rows = await ex
      .update(admins)
      .set({ totpSecretEnc: pendingEnc, totpPendingSecretEnc: null, twoFactorEnabledAt: now, updatedAt: now })
      .where(and(eq(admins.id, id), isNull(admins.totpSecretEnc), eq(admins.totpPendingSecretEnc, pendingEnc)))
      .returning({ id: admins.id });
    return rows.length > 0;
  }

  /** Switches 2FA off and drops the recovery codes; returns whether it was on. */
  async deactivate2fa(ex: Executor, id: number, now: Date): Promise<boolean> {
    const rows = await ex
      .update(admins)
      .set({ totpSecretEnc: null, totpPendingSecretEnc: null, twoFactorEnabledAt: null, updatedAt: now })
      .where(and(eq(admins.id, id), sql`${admins.totpSecretEnc} is not null`))
      .returning({ id: admins.id });
    await ex.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id));
    return rows.length > 0;
  }

  async replaceRecoveryCodes(ex: Executor, adminId: number, codes: { salt: string; codeHash: string; hint: string }[], now: Date): Promise<void> {
    await ex.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
    await ex.insert(adminRecoveryCodes).values(codes.map((c) => ({ ...c, adminId, createdAt: now })));
  }

  listRecoveryCodes(ex: Executor, adminId: number) {
    return ex
      .select({ id: adminRecoveryCodes.id, salt: adminRecoveryCodes.salt, codeHash: adminRecoveryCodes.codeHash, usedAt: adminRecoveryCodes.usedAt })
      .from(adminRecoveryCodes)
      .where(eq(adminRecoveryCodes.adminId, adminId))
      .orderBy(asc(adminRecoveryCodes.id));
  }

  /** Marks a recovery code used; true only for the single caller that wins. */
  async useRecoveryCode(ex: Executor, id: number, now: Date): Promise<boolean> {
    const rows = await ex
      .update(adminRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(adminRecoveryCodes.id, id), isNull(adminRecoveryCodes.usedAt)))
      .returning({ id: adminRecoveryCodes.id });
    return rows.length > 0;
  }
}

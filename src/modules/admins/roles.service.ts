import type { Database, Executor } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { AdminsRepository, RolesRepository } from './admins.repository.js';
import { ALL_PERMISSIONS, BUILTIN_ROLES, isPermission, PERMISSIONS, SUPER_ADMIN } from './permissions.js';
import { assertSuperAdmin } from './super-admin.js';

export class RolesService {
  constructor(
    private readonly db: Database,
    private readonly roles: RolesRepository,
    private readonly admins: AdminsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Idempotent, on every start: creates missing built-in roles with their default permissions
   * (existing roles keep what Super Admin gave them) and gives Super Admin exactly the catalog.
   */
  async seed(): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const def of BUILTIN_ROLES) {
        const { role, created } = await this.roles.ensure(tx, {
          name: def.name,
          description: def.description,
          isBuiltin: true,
          isLocked: def.locked,
        });
        if (def.name === SUPER_ADMIN) {
          await this.roles.addPermissions(tx, role.id, ALL_PERMISSIONS);
          await this.roles.removePermissionsNotIn(tx, role.id, ALL_PERMISSIONS);
        } else if (created) {
          await this.roles.addPermissions(tx, role.id, def.permissions);
        }
      }
    });
  }

  async list() {
    return this.roles.listWithCounts(this.db);
  }

  /** Every catalog permission with whether the role holds it. */
  async permissionsOf(roleName: string) {
    const role = await this.roles.findByName(this.db, roleName);
    if (!role) throw new NotFoundError('Role');
    const held = new Set(await this.roles.permissionsOf(this.db, role.id));
    return {
      role: role.name,
      locked: role.isLocked,
      permissions: ALL_PERMISSIONS.map((name) => ({ name, description: PERMISSIONS[name], assigned: held.has(name) })),
    };
  }

  /** Sync: the role holds exactly `permissions` afterwards. Super Admin only; locked roles refuse. */
  async sync(actor: Actor, roleName: string, permissions: string[]) {
    return this.db.transaction(async (tx) => {
      await assertSuperAdmin(tx, this.admins, actor, 'Only Super Admin may change role permissions');
      const role = await this.roles.findByName(tx, roleName);
      if (!role) throw new NotFoundError('Role');
      if (role.isLocked) throw new ForbiddenError(`The ${role.name} role is locked and cannot be changed`, 'ROLE_LOCKED');
      const unknown = permissions.filter((p) => !isPermission(p));
      if (unknown.length > 0) {
        throw new ValidationError('Unknown permissions', unknown.map((p) => ({ field: 'permissions', message: `${p} is not a known permission` })));
      }
      const wanted = [...new Set(permissions)].sort();
      const before = await this.roles.permissionsOf(tx, role.id);
      await this.roles.replacePermissions(tx, role.id, wanted);
      await this.audit.record(tx, {
        actor,
        action: 'role.permissions_synced',
        targetType: 'role',
        targetId: role.id,
        before: { role: role.name, permissions: before },
        after: { role: role.name, permissions: wanted },
      });
      return { role: role.name, permissions: wanted };
    });
  }

  /** The permissions a login with this role gets (Super Admin: the whole catalog). */
  async resolve(ex: Executor, roleId: number, roleName: string): Promise<string[]> {
    if (roleName === SUPER_ADMIN) return [...ALL_PERMISSIONS];
    return (await this.roles.permissionsOf(ex, roleId)).filter(isPermission);
  }
}

import { accountSubject, type AccountLock } from '../../platform/account-lock/account-lock.js';
import type { Clock } from '../../platform/clock.js';
import { hashPassword, randomToken, sha256Hex } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { offsetOf, type PageRequest } from '../../platform/http/pagination.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { linkMail } from '../../platform/mail/templates.js';
import { SYSTEM_ACTOR, type Actor, type AuditService } from '../audit/index.js';
import { isStrongPassword, passwordRule } from '../../platform/password-policy.js';
import { generatePassword } from './admin-tokens.js';
import type { AdminPasswordLinksRepository } from './admin-password-links.repository.js';
import type { AdminSessionsRepository } from './admin-sessions.repository.js';
import type { AdminsRepository, AdminWithRole, RolesRepository } from './admins.repository.js';
import { SUPER_ADMIN } from './permissions.js';
import { assertSuperAdmin, isSuperAdmin } from './super-admin.js';

/** What may be written to the audit log about an admin (never the hash). */
function snapshot(a: AdminWithRole) {
  return { name: a.name, email: a.email, role: a.roleName, deleted: a.deletedAt !== null, must_change_password: a.mustChangePassword };
}

export interface CreatedAdmin {
  admin: AdminWithRole;
  /** The generated password, shown once. */
  password: string;
}

/** A staff account whose owner was mailed a link to choose the password. */
export interface InvitedAdmin {
  admin: AdminWithRole;
  linkExpiresAt: Date;
}

/** How long a mailed set-password link works (docs/api.md, staff accounts). */
export const PASSWORD_LINK_TTL_HOURS = 48;
/** The page the link opens (admin-password.pages.ts). */
export const SET_PASSWORD_PAGE = '/backoffice/set-password';

/** Staff accounts: create, list, change role, delete, restore, reset password, first Super Admin. */
export class AdminsService {
  constructor(
    private readonly db: Database,
    private readonly admins: AdminsRepository,
    private readonly roles: RolesRepository,
    private readonly sessions: AdminSessionsRepository,
    private readonly audit: AuditService,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly lock: AccountLock,
    private readonly links: AdminPasswordLinksRepository,
    private readonly opts: { publicUrl: string },
  ) {}

  async get(id: number): Promise<AdminWithRole> {
    const admin = await this.admins.findById(this.db, id);
    if (!admin) throw new NotFoundError('Admin');
    return admin;
  }

  list(page: PageRequest) {
    return this.admins.list(this.db, page.limit, offsetOf(page));
  }

  /**
   * A new staff account. Nobody knows its password (a random one is hashed and forgotten): the
   * staff member chooses one through the link mailed to them.
   */
  async create(actor: Actor, input: { name: string; email: string; role: string }): Promise<InvitedAdmin> {
    const passwordHash = await hashPassword(randomToken());
    return this.db.transaction(async (tx) => {
      const role = await this.roles.findByName(tx, input.role);
      if (!role) throw new ValidationError('Unknown role', [{ field: 'role', message: `${input.role} is not a role` }]);
      if (role.name === SUPER_ADMIN) await assertSuperAdmin(tx, this.admins, actor, 'Only Super Admin may create a Super Admin');
      const admin = await this.insertAdmin(tx, { name: input.name, email: input.email, roleId: role.id, passwordHash, mustChangePassword: true });
      const created = { ...admin, roleName: role.name };
      await this.audit.record(tx, { actor, action: 'admin.created', targetType: 'admin', targetId: admin.id, after: snapshot(created) });
      const linkExpiresAt = await this.mailLink(tx, created, 'Your backoffice account', `An account on the backoffice was opened for you (${created.email}, role ${created.roleName}). Choose your password through this link, then log in.`);
      return { admin: created, linkExpiresAt };
    });
  }

  async updateRole(actor: Actor, id: number, roleName: string): Promise<AdminWithRole> {
    return this.db.transaction(async (tx) => {
      const target = await this.admins.findById(tx, id, { forUpdate: true });
      if (!target) throw new NotFoundError('Admin');
      if (actor.id === id) throw new ForbiddenError('You cannot change your own role');
      const role = await this.roles.findByName(tx, roleName);
      if (!role) throw new ValidationError('Unknown role', [{ field: 'role', message: `${roleName} is not a role` }]);
      if (role.name === SUPER_ADMIN || target.roleName === SUPER_ADMIN) {
        await assertSuperAdmin(tx, this.admins, actor, 'Only Super Admin may grant or take away the Super Admin role');
      }
      await this.admins.update(tx, id, { roleId: role.id });
      const after = { ...target, roleId: role.id, roleName: role.name };
      await this.audit.record(tx, { actor, action: 'admin.role_changed', targetType: 'admin', targetId: id, before: { role: target.roleName }, after: { role: role.name } });
      return after;
    });
  }

  /** Soft delete: the account stays, cannot log in, and its sessions end at once. Super Admin only. */
  async delete(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await assertSuperAdmin(tx, this.admins, actor, 'Only Super Admin may delete staff');
      if (actor.id === id) throw new BadRequestError('CANNOT_DELETE_SELF', 'You cannot delete your own account');
      const target = await this.admins.findById(tx, id, { forUpdate: true });
      if (!target) throw new NotFoundError('Admin');
      if (target.deletedAt) throw new ConflictError('The admin is already deleted');
      const now = this.clock.now();
      await this.admins.update(tx, id, { deletedAt: now });
      const revoked = await this.sessions.revokeAllOf(tx, id, now, 'admin deleted');
      await this.audit.record(tx, {
        actor,
        action: 'admin.deleted',
        targetType: 'admin',
        targetId: id,
        before: snapshot(target),
        after: { ...snapshot(target), deleted: true, sessions_revoked: revoked },
      });
    });
  }

  async restore(actor: Actor, id: number): Promise<AdminWithRole> {
    return this.db.transaction(async (tx) => {
      const target = await this.admins.findById(tx, id, { forUpdate: true });
      if (!target) throw new NotFoundError('Admin');
      if (!target.deletedAt) throw new ConflictError('The admin is not deleted');
      if (target.roleName === SUPER_ADMIN) await assertSuperAdmin(tx, this.admins, actor, 'Only Super Admin may restore a Super Admin');
      await this.admins.update(tx, id, { deletedAt: null });
      await this.lock.clear('admin', accountSubject(id), tx);
      const restored = { ...target, deletedAt: null };
      await this.audit.record(tx, { actor, action: 'admin.restored', targetType: 'admin', targetId: id, before: snapshot(target), after: snapshot(restored) });
      return restored;
    });
  }

  /**
   * The old password stops working and the admin's sessions end; a link to choose a new one is
   * mailed to the admin (nobody else sees a password).
   */
  async resetPassword(actor: Actor, id: number): Promise<InvitedAdmin> {
    const passwordHash = await hashPassword(randomToken());
    return this.db.transaction(async (tx) => {
      await assertSuperAdmin(tx, this.admins, actor, "Only Super Admin may reset other admins' passwords");
      if (actor.id === id) throw new BadRequestError('USE_CHANGE_PASSWORD', 'Use change-password for your own password');
      const target = await this.admins.findById(tx, id, { forUpdate: true });
      if (!target) throw new NotFoundError('Admin');
      if (target.deletedAt) throw new ConflictError('The admin is deleted; restore it first');
      const now = this.clock.now();
      await this.admins.update(tx, id, { passwordHash, mustChangePassword: true, passwordChangedAt: now });
      await this.lock.clear('admin', accountSubject(id), tx);
      const revoked = await this.sessions.revokeAllOf(tx, id, now, 'password reset');
      await this.audit.record(tx, { actor, action: 'admin.password_reset', targetType: 'admin', targetId: id, after: { sessions_revoked: revoked } });
      const updated = { ...target, mustChangePassword: true };
      const linkExpiresAt = await this.mailLink(tx, updated, 'Your backoffice password was reset', `Your backoffice password (${updated.email}) was reset by a Super Admin and your sessions were ended. Choose a new password through this link. If you did not expect this message, contact your administrator.`);
      return { admin: updated, linkExpiresAt };
    });
  }

  /**
   * The first Super Admin (CLI and start-up bootstrap). Without a password one is generated and
   * must be changed at first login.
   */
  async createSuperAdmin(input: { email: string; name: string; password?: string }): Promise<CreatedAdmin & { generated: boolean }> {
    if (input.password !== undefined && !isStrongPassword(input.password)) {
      throw new ValidationError('Weak password', [{ field: 'password', message: passwordRule.description }]);
    }
    const generated = input.password === undefined;
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      const role = await this.roles.findByName(tx, SUPER_ADMIN);
      if (!role) throw new Error('the Super Admin role is missing: seed the roles first');
      const admin = await this.insertAdmin(tx, { name: input.name, email: input.email, roleId: role.id, passwordHash, mustChangePassword: generated });
      const created = { ...admin, roleName: role.name };
      await this.audit.record(tx, { actor: SYSTEM_ACTOR, action: 'admin.created', targetType: 'admin', targetId: admin.id, after: snapshot(created) });
      return { admin: created, password, generated };
    });
  }

  /** True when no admin exists yet (first start). */
  async isEmpty(): Promise<boolean> {
    return (await this.admins.count(this.db)) === 0;
  }

  async isSuperAdmin(actor: Actor): Promise<boolean> {
    return isSuperAdmin(this.db, this.admins, actor);
  }

  private async insertAdmin(
    tx: Executor,
    row: { name: string; email: string; roleId: number; passwordHash: string; mustChangePassword: boolean },
  ) {
    if ((await this.admins.emailsTaken(tx, [row.email])).length > 0) throw new ConflictError('An admin with this e-mail exists', 'EMAIL_TAKEN');
    try {
      return await this.admins.insert(tx, { ...row, email: row.email.trim(), passwordChangedAt: this.clock.now() });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('An admin with this e-mail exists', 'EMAIL_TAKEN');
      throw err;
    }
  }

  /** Stores a new one-time link (earlier ones of the admin stop working) and queues its mail. */
  private async mailLink(tx: Executor, admin: AdminWithRole, subject: string, intro: string): Promise<Date> {
    const now = this.clock.now();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_HOURS * 3600_000);
    await this.links.replace(tx, { adminId: admin.id, tokenHash: sha256Hex(token), expiresAt, now });
    const url = `${this.opts.publicUrl}${SET_PASSWORD_PAGE}?token=${encodeURIComponent(token)}`;
    await this.mailer.queueMail(admin.email, linkMail({ template: 'admin_set_password', subject, intro: `Hello ${admin.name}, ${intro}`, url, validHours: PASSWORD_LINK_TTL_HOURS }), tx);
    return expiresAt;
  }
}

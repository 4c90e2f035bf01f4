import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminOf } from '../../platform/http/auth.js';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import type { RoutePermission } from '../../platform/http/surfaces.js';
import { Envelope, errorResponses, MessageOnly, Paginated } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import type { AdminsService } from './admins.service.js';
import { presentAdmin, presentProfile } from './admins.present.js';
import {
  AdminIdParams,
  AdminListItem,
  AdminListQuery,
  AdminProfile,
  AdminInvited,
  CreateAdminBody,
  PermissionCatalog,
  RoleItem,
  RoleNameParams,
  RolePermissions,
  SyncedPermissions,
  SyncPermissionsBody,
  TwoFactorResetBody,
  UpdateRoleBody,
} from './admins.schemas.js';
import type { StaffTwoFactorService } from './staff-two-factor.service.js';
import { ALL_PERMISSIONS, PERMISSIONS } from './permissions.js';
import type { RolesService } from './roles.service.js';

const tags = ['Backoffice: admins and roles'];

export interface AdminsRoutesOptions {
  admins: AdminsService;
  twoFactor: StaffTwoFactorService;
  roles: RolesService;
  /** Filled by installBackofficeSurface as routes register. */
  routeMap: readonly RoutePermission[];
}

export const adminsAdminRoutes: FastifyPluginAsyncTypebox<AdminsRoutesOptions> = async (app, { admins, twoFactor, roles, routeMap }) => {
  app.get(
    '/inf',
    {
      // Open while a generated password waits to be changed: the console reads must_change_password here.
      config: { permission: 'authenticated', allowPendingPasswordChange: true },
      schema: { tags, summary: 'The logged-in admin with role and permissions', response: { 200: Envelope(AdminProfile), ...errorResponses(401) } },
    },
    async (req) => {
      const me = adminOf(req);
      const row = await admins.get(me.adminId);
      return { message: 'OK', data: { ...presentProfile(row, me.permissions), role: me.role } };
    },
  );

  app.get(
    '',
    {
      config: { permission: 'view_admins' },
      schema: { tags, summary: 'Staff accounts (deleted ones included)', querystring: AdminListQuery, response: { 200: Paginated(AdminListItem), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await admins.list(p);
      return paginated('OK', p, { items: page.items.map(presentAdmin), total: page.total });
    },
  );

  app.post(
    '',
    {
      config: { permission: 'manage_admins', audit: 'admin.created' },
      schema: {
        tags,
        summary: 'Creates a staff account; the staff member gets a mailed one-time link to choose the password (no password is sent or shown)',
        body: CreateAdminBody,
        response: { 201: Envelope(AdminInvited), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const r = await admins.create(actorOf(req), req.body);
      return reply.status(201).send({ message: 'Admin created; a link to choose the password was e-mailed', data: { ...presentAdmin(r.admin), set_password_link_expires_at: r.linkExpiresAt.toISOString() } });
    },
  );

  app.patch(
    '/:id/update-role',
    {
      config: { permission: 'manage_admins', audit: 'admin.role_changed' },
      schema: {
        tags,
        summary: "Changes an admin's role; in force at their next token refresh (within 15 minutes)",
        description:
          'Requests carry the permissions of the 15-minute access token, so the new role applies at the next refresh (a new login too). ' +
          'A ticket stream the admin holds open ends at its next heartbeat if the new role lacks view_tickets, a VM console they hold if it lacks operate_compute; an impersonation session they opened ends at once.',
        params: AdminIdParams,
        body: UpdateRoleBody,
        response: { 200: Envelope(AdminListItem), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: "Role updated; in force at the admin's next token refresh (within 15 minutes); an open ticket stream or VM console the new role may not hold ends at its next heartbeat", data: presentAdmin(await admins.updateRole(actorOf(req), req.params.id, req.body.role)) }),
  );

  app.delete(
    '/:id/delete',
    {
      config: { permission: 'manage_admins', audit: 'admin.deleted' },
      schema: { tags, summary: 'Soft-deletes a staff account (Super Admin only); its sessions end at once', params: AdminIdParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => {
      await admins.delete(actorOf(req), req.params.id);
      return { message: 'Admin deleted', data: null };
    },
  );

  app.post(
    '/:id/restore',
    {
      config: { permission: 'manage_admins', audit: 'admin.restored' },
      schema: { tags, summary: 'Restores a soft-deleted staff account', params: AdminIdParams, response: { 200: Envelope(AdminListItem), ...errorResponses(401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Admin restored', data: presentAdmin(await admins.restore(actorOf(req), req.params.id)) }),
  );

  app.post(
    '/:id/reset-password',
    {
      config: { permission: 'manage_admins', audit: 'admin.password_reset' },
      schema: {
        tags,
        summary: "Resets a staff member's password (Super Admin only): the old one stops working, sessions end, a one-time link to choose a new one is e-mailed",
        params: AdminIdParams,
        response: { 200: Envelope(AdminInvited), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const r = await admins.resetPassword(actorOf(req), req.params.id);
      return { message: 'Password reset; a link to choose a new one was e-mailed', data: { ...presentAdmin(r.admin), set_password_link_expires_at: r.linkExpiresAt.toISOString() } };
    },
  );

  app.post(
    '/:id/2fa/reset',
    {
      config: { permission: 'manage_admins', audit: 'admin.2fa_reset' },
      schema: {
        tags,
        summary: "Turns off another admin's two-factor authentication (Super Admin only), with the reason for the audit log; their sessions end",
        params: AdminIdParams,
        body: TwoFactorResetBody,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await twoFactor.reset(actorOf(req), req.params.id, req.body.reason.trim());
      return { message: 'Two-factor authentication reset', data: null };
    },
  );

  app.get(
    '/roles',
    {
      config: { permission: 'view_roles' },
      schema: { tags, summary: 'Roles with their permission counts', response: { 200: Envelope(Type.Array(RoleItem)), ...errorResponses(401, 403) } },
    },
    async () => {
      const rows = await roles.list();
      const data = rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        is_builtin: r.isBuiltin,
        is_locked: r.isLocked,
        permission_count: r.permissionCount,
        admin_count: r.adminCount,
      }));
      return { message: 'OK', data };
    },
  );

  app.get(
    '/roles/:role_name/permissions',
    {
      config: { permission: 'view_roles' },
      schema: { tags, summary: 'Every catalog permission with whether the role holds it', params: RoleNameParams, response: { 200: RolePermissions, ...errorResponses(401, 403, 404) } },
    },
    async (req) => {
      const r = await roles.permissionsOf(req.params.role_name);
      return { message: 'OK', data: r.permissions, meta: { role: r.role, locked: r.locked } };
    },
  );

  app.post(
    '/roles/:role_name/permissions',
    {
      config: { permission: 'manage_roles', audit: 'role.permissions_synced' },
      schema: {
        tags,
        summary: "Sync: the array replaces the role's permissions (Super Admin only; Super Admin role is locked)",
        description: "In force for the role's admins at their next token refresh (within 15 minutes); open ticket streams of admins who lose view_tickets, and VM consoles of those who lose operate_compute, end at their next heartbeat.",
        params: RoleNameParams,
        body: SyncPermissionsBody,
        response: { 200: Envelope(SyncedPermissions), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: "Permissions synced; in force for the role's admins at their next token refresh (within 15 minutes)", data: await roles.sync(actorOf(req), req.params.role_name, req.body.permissions) }),
  );

  app.get(
    '/permissions',
    {
      config: { permission: 'view_roles' },
      schema: { tags, summary: 'The permission catalog and the permission each backoffice route needs', response: { 200: Envelope(PermissionCatalog), ...errorResponses(401, 403) } },
    },
    async () => ({
      message: 'OK',
      data: {
        permissions: ALL_PERMISSIONS.map((name) => ({ name, description: PERMISSIONS[name] })),
        routes: [...routeMap].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method)),
      },
    }),
  );
};

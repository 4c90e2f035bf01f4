import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const LoginBody = StrictObject({
  email: Type.String({ minLength: 3, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const ChangePasswordBody = StrictObject({
  current_password: Type.String({ minLength: 1, maxLength: 1024 }),
  new_password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const AdminProfile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
  permissions: Type.Array(Type.String(), { description: 'resolved at login and at every token refresh: role changes apply within 15 minutes' }),
  must_change_password: Type.Boolean(),
  two_factor_enabled: Type.Boolean(),
  last_login_at: NullableTimestamp,
  created_at: Timestamp,
});

export const LoginData = Type.Object({
  must_change_password: Type.Boolean({ description: 'true: only change-password (and logout) work until the password is changed' }),
  two_factor_required: Type.Boolean({ description: 'true: no session yet; send a code to POST /api/backoffice/auth/2fa/verify (the bo_mfa_challenge cookie is set)' }),
  two_factor_setup_required: Type.Boolean({ description: 'true: the role moves money and the staff-2fa setting is on: only 2FA enrolment (and logout) work until 2FA is on' }),
  first_login: Type.Boolean({ description: "true: the account's first login (the console offers two-factor set-up after it)" }),
  admin: Type.Optional(AdminProfile),
});

export const StaffSecondFactorBody = StrictObject(
  { code: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })), recovery_code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) },
  { description: 'code (TOTP) or recovery_code' },
);
export const StaffPasswordBody = StrictObject({ password: Type.String({ minLength: 1, maxLength: 1024 }) });
export const StaffCodeBody = StrictObject({ code: Type.String({ minLength: 1, maxLength: 16 }) });
export const StaffReauthBody = StrictObject({ password: Type.String({ minLength: 1, maxLength: 1024 }), code: Type.String({ minLength: 1, maxLength: 16 }) });
export const StaffGeneratedSecret = Type.Object({ secret: Type.String(), otpauth_url: Type.String(), qr_code: Type.String({ description: 'data:image/png;base64,...' }) });
export const StaffRecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String(), { description: 'shown once' }) });
export const TwoFactorResetBody = StrictObject({ reason: Type.String({ minLength: 3, maxLength: 500 }) });

export const AdminListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
  must_change_password: Type.Boolean(),
  is_deleted: Type.Boolean(),
  deleted_at: NullableTimestamp,
  last_login_at: NullableTimestamp,
  created_at: Timestamp,
});

export const AdminInvited = Type.Object({
  ...AdminListItem.properties,
  set_password_link_expires_at: Timestamp,
});

export const SetPasswordBody = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'the token of the mailed link' }),
  new_password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const AdminListQuery = PageQuery;
export const AdminIdParams = Type.Object({ id: IntId });

export const CreateAdminBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  email: Email,
  role: Type.String({ minLength: 1, maxLength: 100 }),
});

export const UpdateRoleBody = StrictObject({ role: Type.String({ minLength: 1, maxLength: 100 }) });

export const RoleItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  is_builtin: Type.Boolean(),
  is_locked: Type.Boolean(),
  permission_count: Type.Integer(),
  admin_count: Type.Integer(),
});

export const RoleNameParams = Type.Object({ role_name: Type.String({ minLength: 1, maxLength: 100 }) });

/** `data` is the list itself (spec: "list of objects giving the assignment status of each permission"); the role goes in `meta`. */
export const RolePermissions = Type.Object({
  message: Type.String(),
  data: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), assigned: Type.Boolean() })),
  meta: Type.Object({ role: Type.String(), locked: Type.Boolean() }),
});

export const SyncPermissionsBody = StrictObject({
  permissions: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 }),
});

export const SyncedPermissions = Type.Object({ role: Type.String(), permissions: Type.Array(Type.String()) });

export const PermissionCatalog = Type.Object({
  permissions: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  routes: Type.Array(
    Type.Object({
      method: Type.String(),
      url: Type.String(),
      permission: Type.String({ description: "a catalog permission, 'public' or 'authenticated'" }),
      audit: Type.Optional(Type.String({ description: 'writes: the audit action recorded when the service records nothing richer' })),
    }),
  ),
});

import type { AdminWithRole } from './admins.repository.js';

export function presentAdmin(a: AdminWithRole) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    role: a.roleName,
    must_change_password: a.mustChangePassword,
    is_deleted: a.deletedAt !== null,
    deleted_at: a.deletedAt?.toISOString() ?? null,
    last_login_at: a.lastLoginAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  };
}

export function presentProfile(a: AdminWithRole, permissions: readonly string[]) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    role: a.roleName,
    permissions: [...permissions],
    must_change_password: a.mustChangePassword,
    two_factor_enabled: a.totpSecretEnc !== null,
    last_login_at: a.lastLoginAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  };
}

import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Backoffice roles: the five built-in ones (seeded) and any custom role. */
export const roles = pgTable(
  'roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isBuiltin: boolean('is_builtin').notNull().default(false),
    /** A locked role (Super Admin) cannot be changed through the API. */
    isLocked: boolean('is_locked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_name_unique').on(sql`lower(${t.name})`)],
);

/** Permission strings come from the catalog in permissions.ts. */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permission] })],
);

/** Staff accounts. Soft-deleted accounts keep their row (and audit trail) and cannot log in. */
export const admins = pgTable(
  'admins',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    /** Set for generated passwords: the admin can only change the password until they do. */
    mustChangePassword: boolean('must_change_password').notNull().default(true),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    // TOTP two-factor authentication (the customers' scheme): secrets AES-256-GCM encrypted with ENCRYPTION_KEY.
    totpSecretEnc: text('totp_secret_enc'),
    totpPendingSecretEnc: text('totp_pending_secret_enc'),
    /** The last TOTP time step accepted: a code of that step or an earlier one is a replay. */
    lastTotpStep: integer('last_totp_step').notNull().default(sql`0`),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admins_email_unique').on(sql`lower(${t.email})`), index('admins_role_idx').on(t.roleId)],
);

/**
 * One-time links that let a staff member choose a password (a new account, or a reset by Super
 * Admin). Only a hash is stored; a new link replaces the admin's earlier unused ones.
 */
export const adminPasswordLinks = pgTable(
  'admin_password_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_password_links_hash_unique').on(t.tokenHash), index('admin_password_links_admin_idx').on(t.adminId)],
);

/** What a request that loses a race on these constraints answers (409; platform/db/errors.ts). */
export const adminsConstraintMeanings = {
  admins_email_unique: { code: 'EMAIL_TAKEN', message: 'An admin with this e-mail exists' },
  roles_name_unique: { code: 'NAME_TAKEN', message: 'A role with this name exists' },
} as const;

/**
 * One row per backoffice login. Every request checks its session is alive, so revoking it (logout,
 * delete, password reset) ends it at once. It ends 12 hours after login (expires_at); role and
 * permissions are those of the last login or refresh. Its refresh tokens live in refresh_tokens
 * (src/platform/refresh-tokens), as the customers' do.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: uuid('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id),
    roleName: text('role_name').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastAccessAt: timestamp('last_access_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('admin_sessions_admin_idx').on(t.adminId)],
);

/** Staff 2FA recovery codes, stored only as salted hashes (as the customers' are). */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    salt: text('salt').notNull(),
    codeHash: text('code_hash').notNull(),
    hint: text('hint').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('admin_recovery_codes_admin_idx').on(t.adminId)],
);

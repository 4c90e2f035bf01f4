import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { RolesRepository, SUPER_ADMIN } from '../../src/modules/admins/index.js';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { hashPassword } from '../../src/platform/crypto/index.js';
import type { TestApp } from './app.js';

export interface TestAdmin {
  id: number;
  email: string;
  password: string;
  role: string;
}

export interface AdminOptions {
  /** a role name (default 'Super Admin'); ignored when `permissions` is given */
  role?: string;
  /** a custom role holding exactly these permissions is created for the admin */
  permissions?: string[];
  email?: string;
  name?: string;
}

const unique = () => randomBytes(4).toString('hex');

/** A known password that satisfies the password rule. */
export const strongPassword = () => `Pw-${unique()}-Aa1!`;

/** Creates a role with exactly these permissions (for tests only: the API has no create-role route). */
export async function createCustomRole(t: TestApp, permissions: string[], name = `Custom ${unique()}`): Promise<string> {
  const repo = new RolesRepository();
  const role = await repo.insert(t.container.db, { name, description: 'test role' });
  await repo.replacePermissions(t.container.db, role.id, permissions);
  return role.name;
}

/** An admin created through the service whose password is already changed (no must-change). */
export async function createAdmin(t: TestApp, opts: AdminOptions = {}): Promise<TestAdmin> {
  const { admins } = t.container.services;
  const email = opts.email ?? `admin-${unique()}@staff.test`;
  const name = opts.name ?? 'Test Admin';
  const password = strongPassword();
  const role = opts.permissions ? await createCustomRole(t, opts.permissions) : (opts.role ?? SUPER_ADMIN);
  if (role === SUPER_ADMIN) {
    const r = await admins.createSuperAdmin({ email, name, password });
    return { id: r.admin.id, email, password, role };
  }
  const r = await admins.create(SYSTEM_ACTOR, { name, email, role });
  await t.container.db.execute(
    (await import('drizzle-orm')).sql`update admins set password_hash = ${await hashPassword(password)}, must_change_password = false where id = ${r.admin.id}`,
  );
  return { id: r.admin.id, email, password, role };
}

export interface AdminLogin {
  /** `bo_access_token=...; bo_refresh_token=...` for app.inject's cookie header */
  cookie: string;
  access: string;
  refresh: string;
  body: any;
}

export function cookiesOf(res: { cookies: { name: string; value: string }[] }): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
}

export async function loginAdminFull(t: TestApp, email: string, password: string): Promise<AdminLogin> {
  const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email, password } });
  assert.equal(res.statusCode, 200, res.body);
  const c = cookiesOf(res);
  assert.ok(c.bo_access_token && c.bo_refresh_token, 'login sets both cookies');
  return {
    cookie: `bo_access_token=${c.bo_access_token}; bo_refresh_token=${c.bo_refresh_token}`,
    access: c.bo_access_token!,
    refresh: c.bo_refresh_token!,
    body: res.json(),
  };
}

/** Logs in and returns the cookie header. */
export async function loginAdmin(t: TestApp, email: string, password: string): Promise<string> {
  return (await loginAdminFull(t, email, password)).cookie;
}

/** createAdmin + loginAdmin. */
export async function adminSession(t: TestApp, opts: AdminOptions = {}): Promise<TestAdmin & { cookie: string }> {
  const admin = await createAdmin(t, opts);
  return { ...admin, cookie: await loginAdmin(t, admin.email, admin.password) };
}

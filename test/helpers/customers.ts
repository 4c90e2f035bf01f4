import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { customers } from '../../src/modules/customers/customers.tables.js';
import { hashPassword } from '../../src/platform/crypto/index.js';
import type { TestApp } from './app.js';

export const DEFAULT_PASSWORD = 'Str0ng!Passw0rd';

export interface CreatedCustomer {
  id: number;
  email: string;
  password: string;
}

export type CustomerOverrides = Partial<typeof customers.$inferInsert> & { password?: string };

/** A verified, active customer straight in the database (fast; no mail). */
export async function createCustomer(t: TestApp, overrides: CustomerOverrides = {}): Promise<CreatedCustomer> {
  const { password = DEFAULT_PASSWORD, ...rest } = overrides;
  const email = rest.email ?? `customer-${randomBytes(5).toString('hex')}@example.test`;
  const [row] = await t.container.db
    .insert(customers)
    .values({
      firstName: 'Test',
      lastName: 'Customer',
      accountType: 'P',
      isRegistrationCompleted: true,
      emailVerifiedAt: new Date(),
      ...rest,
      email,
      passwordHash: await hashPassword(password),
    })
    .returning({ id: customers.id });
  return { id: row!.id, email, password };
}

/** The cookies a response sets, by name (cleared cookies map to ''). */
export function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    const cleared = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
    out[c.name] = cleared ? '' : c.value;
  }
  return out;
}

/** A Cookie header from name/value pairs (empty values are left out). */
export function cookieHeader(cookies: Record<string, string | undefined>): string {
  return Object.entries(cookies)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

/** Logs in (an account without 2FA) and returns a Cookie header for app.inject. */
export async function loginCustomer(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().data.redirect, 'DASHBOARD', 'loginCustomer needs an account without 2FA');
  const c = cookiesOf(res);
  return cookieHeader({ access_token: c.access_token, refresh_token: c.refresh_token });
}

/** createCustomer + loginCustomer. */
export async function customerSession(t: TestApp, overrides: CustomerOverrides = {}): Promise<CreatedCustomer & { cookie: string }> {
  const customer = await createCustomer(t, overrides);
  return { ...customer, cookie: await loginCustomer(t, customer.email, customer.password) };
}

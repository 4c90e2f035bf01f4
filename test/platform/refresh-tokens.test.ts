import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createAdmin, loginAdminFull } from '../helpers/admins.js';
import { cookiesOf, createCustomer } from '../helpers/customers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const refresh = (surface: 'customer' | 'staff', token: string) =>
  surface === 'customer'
    ? t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${token}` } })
    : t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${token}` } });

test('customer and staff sessions share one refresh-token mechanism, each token good for its own realm only', async () => {
  const c = await createCustomer(t);
  const customerToken = cookiesOf(await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } })).refresh_token!;
  const a = await createAdmin(t);
  const staffToken = (await loginAdminFull(t, a.email, a.password)).refresh;

  const realms = await queryRows<{ realm: string; n: number }>(t.container.db, sql`select realm, count(*)::int as n from refresh_tokens group by realm order by realm`);
  assert.deepEqual(realms.map((r) => r.realm), ['admin', 'customer']);

  // a token of one realm is unknown to the other (401, and its own session is untouched)
  assert.equal((await refresh('staff', customerToken)).statusCode, 401);
  assert.equal((await refresh('customer', staffToken)).statusCode, 401);
  const c2 = await refresh('customer', customerToken);
  const s2 = await refresh('staff', staffToken);
  assert.equal(c2.statusCode, 200, c2.body);
  assert.equal(s2.statusCode, 200, s2.body);

  // the same reuse rule on both sides: a rotated token again ends the session
  assert.equal((await refresh('customer', customerToken)).statusCode, 401);
  assert.equal((await refresh('staff', staffToken)).statusCode, 401);
  assert.equal((await refresh('customer', cookiesOf(c2).refresh_token!)).statusCode, 401);
  assert.equal((await refresh('staff', cookiesOf(s2).bo_refresh_token!)).statusCode, 401);
});

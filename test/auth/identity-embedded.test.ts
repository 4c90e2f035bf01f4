import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, createCustomer, loginCustomer } from '../helpers/customers.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';

let t: TestApp;
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ db: 'embedded', clock, worker: false });
});
after(() => t.close());

test('identity on the embedded database: login, refresh, lock, 2FA, profile', async () => {
  const c = await createCustomer(t);
  const cookie = await loginCustomer(t, c.email, c.password);
  const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
  assert.equal(refreshed.statusCode, 200);
  const next = cookieHeader(cookiesOf(refreshed));
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: next } })).json().data.id, c.id);
  const patch = await t.app.inject({ method: 'PATCH', url: '/api/customer/profile', headers: { cookie: next }, payload: { personal_profile: { country_id: '360', province_id: '11' } } });
  assert.equal(patch.statusCode, 200, patch.body);

  const { secret, recoveryCodes } = await enable2fa(t, clock, c.id);
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } });
  assert.equal(login.json().data.redirect, '2FA');
  const challenge = `mfa_challenge=${cookiesOf(login).mfa_challenge}`;
  const ok = await t.app.inject({ method: 'POST', url: '/api/auth/2fa/verify-code', headers: { cookie: challenge }, payload: { email: c.email, code: nextCode(clock, secret) } });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal(recoveryCodes.length, 10);

  const other = await createCustomer(t);
  for (let i = 0; i < 10; i++) await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: other.email, password: 'Wr0ng!pass' } });
  assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: other.email, password: other.password } })).statusCode, 429);
});

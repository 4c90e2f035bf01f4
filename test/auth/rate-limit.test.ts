import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '5' } });
});
after(() => t.close());

test('auth routes are rate limited per IP (AUTH_RATE_LIMIT_PER_MIN)', async () => {
  const login = (ip: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: 'nobody@example.test', password: 'x' } });
  for (let i = 0; i < 5; i++) assert.equal((await login('10.1.1.1')).statusCode, 401);
  const limited = await login('10.1.1.1');
  assert.equal(limited.statusCode, 429);
  assert.equal(limited.json().code, 'RATE_LIMITED');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  const forgot = await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', remoteAddress: '10.1.1.1', payload: { email: 'a@b.test' } });
  assert.equal(forgot.statusCode, 429);
  // another address is not affected, nor are other APIs
  assert.equal((await login('10.2.2.2')).statusCode, 401);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/country', remoteAddress: '10.1.1.1' })).statusCode, 200);
});

test('X-Forwarded-For from an untrusted client does not dodge the limit (TRUST_PROXY unset)', async () => {
  const login = (forwarded: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.3.3.3', headers: { 'x-forwarded-for': forwarded }, payload: { email: 'nobody@example.test', password: 'x' } });
  for (let i = 0; i < 5; i++) assert.equal((await login(`192.0.2.${i}`)).statusCode, 401);
  assert.equal((await login('192.0.2.99')).statusCode, 429);
});

test('behind a trusted proxy the forwarded address is the client', async () => {
  const proxied = await buildTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '2', TRUST_PROXY: '10.9.9.9' } });
  try {
    const login = (client: string) =>
      proxied.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': client }, payload: { email: 'nobody@example.test', password: 'x' } });
    assert.equal((await login('198.51.100.1')).statusCode, 401);
    assert.equal((await login('198.51.100.1')).statusCode, 401);
    assert.equal((await login('198.51.100.1')).statusCode, 429);
    assert.equal((await login('198.51.100.2')).statusCode, 401);
  } finally {
    await proxied.close();
  }
});

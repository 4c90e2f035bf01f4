import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
/** A second app with a clock of its own and small limits, for the window, pruning and webhook tests. */
let timed: TestApp;
const clock = new ManualClock('2030-05-01T10:00:00.000Z');
before(async () => {
  t = await buildTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '5' } });
  timed = await buildTestApp({ worker: false, clock, env: { AUTH_RATE_LIMIT_PER_MIN: '2', WEBHOOK_RATE_LIMIT_PER_MIN: '3' } });
});
after(async () => {
  await t.close();
  await timed.close();
});

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
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.3.3.3', headers: { 'x-forwarded-for': forwarded }, payload: { email: 'nobody.forwarded@example.test', password: 'x' } });
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

test('a window ends after a minute (injected clock) and ended counters are pruned by a scheduled job', async () => {
  const login = () => timed.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.7.7.7', payload: { email: 'nobody@example.test', password: 'x' } });
  assert.equal((await login()).statusCode, 401);
  clock.advance(30_000);
  assert.equal((await login()).statusCode, 401);
  const limited = await login();
  assert.equal(limited.statusCode, 429);
  assert.equal(limited.headers['retry-after'], '30', 'the window opened by the first request ends 30 s later');
  clock.advance(30_000);
  assert.equal((await login()).statusCode, 401, 'a new window');
  const counters = () => queryRows<{ n: number }>(timed.container.db, sql`select count(*)::int as n from rate_limit_counters`);
  assert.equal((await counters())[0]!.n, 1);
  assert.equal(timed.container.queue.definition('platform.rate-limit-prune')?.schedule, '*/5 * * * *');
  await timed.container.queue.runNow('platform.rate-limit-prune');
  assert.equal((await counters())[0]!.n, 1, 'a live window is kept');
  clock.advance(60_000);
  await timed.container.queue.runNow('platform.rate-limit-prune');
  assert.equal((await counters())[0]!.n, 0);
});

test('the payment callbacks and the return page are rate limited per IP (WEBHOOK_RATE_LIMIT_PER_MIN)', async () => {
  {
    const callback = (ip: string) =>
      timed.app.inject({ method: 'POST', url: '/api/webhook/pgtwo/callback', remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload: '{}' });
    for (let i = 0; i < 3; i++) assert.notEqual((await callback('10.8.8.8')).statusCode, 429);
    const refused = await callback('10.8.8.8');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'RATE_LIMITED');
    assert.equal((await timed.app.inject({ method: 'GET', url: '/api/payment/redirect/pgone?status=success', remoteAddress: '10.8.8.8' })).statusCode, 429);
    assert.notEqual((await callback('10.8.8.9')).statusCode, 429, 'another address has its own limit');
  }
});

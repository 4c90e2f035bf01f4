import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count, desc, like } from 'drizzle-orm';
import { rateLimitCounters } from '../../src/platform/rate-limit/rate-limit.tables.js';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

const clock = new ManualClock(new Date());
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false, env: { API_TOKEN_RATE_LIMIT_PER_MIN: '3', API_TOKEN_IP_RATE_LIMIT_PER_MIN: '5' } });
});
after(() => t.close());

describe('rate limits of API tokens', () => {
  test('each token has its limit, and the client address one over all its tokens; a new minute starts again', async () => {
    const s = await customerSession(t);
    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).json().data.token;
    const mint = async () => (await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo }, payload: { name: 'ci', scopes: ['account:read'] } })).json().data.token as string;
    const [a, b] = [await mint(), await mint()];
    const call = (token: string, ip = '198.51.100.1') => t.app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: `Bearer ${token}` }, remoteAddress: ip });

    for (let i = 0; i < 3; i++) assert.equal((await call(a)).statusCode, 200);
    const limited = await call(a);
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '60');
    assert.equal((await call(a, '198.51.100.2')).statusCode, 429, 'the token is limited from every address');

    // the first address has spent 4 of its 5 on token a; b gets one more there, then the address is full
    assert.equal((await call(b)).statusCode, 200);
    assert.equal((await call(b)).statusCode, 429);
    assert.equal((await call(b, '198.51.100.3')).statusCode, 200, 'another address is counted apart');
    // the cookie session is not counted by these limits
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: s.cookie }, remoteAddress: '198.51.100.1' })).statusCode, 200);

    clock.advance(60_000);
    assert.equal((await call(a)).statusCode, 200);
  });

  test('made-up tokens are counted by their address only: a flood of them writes no counter row per token', async () => {
    const countRows = async () => Number((await t.container.db.select({ n: count() }).from(rateLimitCounters).where(like(rateLimitCounters.key, 'api-token:%')))[0]!.n);
    const before = await countRows();
    const ip = '198.51.100.9';
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: `Bearer chp_pat_madeup${i}xxxxxxxxxxxxxxxxxxxxxxxxxxxx` }, remoteAddress: ip });
      assert.equal(res.statusCode, 401);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: 'Bearer chp_pat_another' }, remoteAddress: ip })).statusCode, 429, 'the address limit still holds');
    assert.equal(await countRows(), before);
  });

  test('parallel requests with one token (on two processes on PostgreSQL): exactly the limit gets through, each process counting its concurrent hits together', async () => {
    // the embedded database is one process's: there the requests all go to the one app
    const other = t.database ? await buildTestApp({ sameDatabaseAs: t, clock, worker: false, env: { API_TOKEN_RATE_LIMIT_PER_MIN: '3', API_TOKEN_IP_RATE_LIMIT_PER_MIN: '5' } }) : t;
    try {
      const s = await customerSession(t);
      const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).json().data.token;
      const token = (await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo }, payload: { name: 'ci', scopes: ['account:read'] } })).json().data.token as string;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? t : other).app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: `Bearer ${token}` }, remoteAddress: `198.51.100.${20 + i}` })),
      );
      assert.equal(answers.filter((r) => r.statusCode === 200).length, 3);
      assert.equal(answers.filter((r) => r.statusCode === 429).length, 27);
      const [row] = await t.container.db.select({ hits: rateLimitCounters.hits }).from(rateLimitCounters).where(like(rateLimitCounters.key, `api-token:%`)).orderBy(desc(rateLimitCounters.hits)).limit(1);
      assert.equal(row!.hits, 30, 'every request was counted once');
    } finally {
      if (other !== t) await other.close();
    }
  });
});

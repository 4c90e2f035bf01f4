import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let a: TestApp;
let b: TestApp;
before(async () => {
  a = await buildTestApp({ db: 'postgres', worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '5' } });
  b = await buildTestApp({ sameDatabaseAs: a, worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '5' } });
});
after(async () => {
  await b.close();
  await a.close();
});

// One address per client: the per-account lock counts unknown addresses too (10 failures), and this is about the per-IP limit.
const login = (t: TestApp, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: `nobody-${ip}@example.test`, password: 'x' } });

describe('the per-IP limits hold across API processes (counters in PostgreSQL)', () => {
  test('requests of one client spread over two processes share one limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(i % 2 === 0 ? a : b, '10.20.0.1')).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
  });

  test('40 parallel requests over both processes: exactly the limit gets through', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(i % 2 === 0 ? a : b, '10.20.0.2')));
    const passed = answers.filter((r) => r.statusCode === 401).length;
    assert.equal(passed, 5);
    assert.equal(answers.filter((r) => r.statusCode === 429).length, 35);
  });
});

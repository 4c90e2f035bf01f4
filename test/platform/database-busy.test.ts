import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer, loginCustomer } from '../helpers/customers.js';
import { enable2fa } from '../helpers/two-factor.js';
import { ManualClock } from '../../src/platform/clock.js';
import type { TransactionBypassError } from '../../src/platform/db/strict.js';

/**
 * The embedded database has one connection. A query that cannot get it within
 * DATABASE_WAIT_TIMEOUT_MS fails its request with 503 and a log naming the holder; the process
 * keeps answering. On PostgreSQL the same requests simply work.
 */
describe('a busy or wedged database connection', () => {
  let t: TestApp;
  const logged: any[] = [];
  const clock = new ManualClock();
  // The context of the test file, outside any transaction: running a query in it from inside a
  // transaction is exactly the bug the ambient transaction prevents (it waits for its own connection).
  let outside: <R>(fn: () => R) => R;
  let releaseHold: () => void = () => {};
  let holding: () => void = () => {};

  before(async () => {
    outside = AsyncLocalStorage.snapshot();
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    t = await buildTestApp({
      clock,
      worker: false,
      env: { DATABASE_WAIT_TIMEOUT_MS: '400' },
      log: pino({ level: 'error' }, stream),
      extend(app: FastifyInstance) {
        // A transaction that runs one of its queries outside itself.
        app.post('/_test/self-wait', async () => {
          const db = t.container.db;
          await db.transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            await outside(() => db.execute(sql`select 2`));
          });
          return { message: 'done', data: null };
        });
        // A transaction that holds the connection until the test lets it go.
        app.post('/_test/hold', async () => {
          await t.container.db.transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            holding();
            await new Promise<void>((r) => (releaseHold = r));
          });
          return { message: 'released', data: null };
        });
      },
    });
  });
  after(() => t.close());

  const ready = () => t.app.inject({ method: 'GET', url: '/readyz' });

  test('a transaction waiting for its own connection fails with 503 and the service keeps answering', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/self-wait' });
    if (t.container.database.kind === 'postgres') {
      // The pool would hand out a second connection and hide the hang; under test the strict
      // database refuses the query instead, so the bug is loud on PostgreSQL too.
      assert.equal(res.statusCode, 500, res.body);
      const refused = (t.container.database.bypasses as TransactionBypassError[]).splice(0);
      assert.equal(refused.length, 1);
      assert.match(refused[0]!.message, /select 2/);
      return;
    }
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.json().code, 'DATABASE_BUSY');
    assert.ok(res.headers['retry-after']);
    const entry = logged.find((l) => /embedded database busy/.test(l.msg));
    assert.ok(entry, 'an error log names the cause');
    assert.match(entry.heldBy, /transaction opened/);
    assert.match(entry.heldBy, /database-busy\.test\.ts/);
    assert.equal((await ready()).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/country' })).statusCode, 200);
  });

  test('a transaction held open answers others 503, /readyz says wedged, and all recovers when it ends', async () => {
    const isHolding = new Promise<void>((r) => (holding = r));
    const held = t.app.inject({ method: 'POST', url: '/_test/hold' });
    await isHolding;
    if (t.container.database.kind === 'postgres') {
      assert.equal((await ready()).statusCode, 200);
    } else {
      const busy = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.test', password: 'Whatever-1!' } });
      assert.equal(busy.statusCode, 503, busy.body);
      assert.equal(busy.json().code, 'DATABASE_BUSY');
      const wedged = await ready();
      assert.equal(wedged.statusCode, 503);
      assert.equal(wedged.json().status, 'database wedged');
      assert.ok(wedged.json().held_for_ms >= 400);
      assert.match(wedged.json().held_by, /transaction opened/);
    }
    releaseHold();
    assert.equal((await held).statusCode, 200);
    assert.equal((await ready()).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/country' })).statusCode, 200);
  });

  test('the staff actions that used to hang the embedded database answer', async () => {
    const admin = await adminSession(t);
    const c = await createCustomer(t);
    await loginCustomer(t, c.email, c.password);
    const sessions = await t.app.inject({ method: 'GET', url: `/api/backoffice/customer/${c.id}/device-sessions`, headers: { cookie: admin.cookie } });
    assert.equal(sessions.statusCode, 200, sessions.body);
    const sid = sessions.json().data[0].id;
    const calls = [
      { method: 'DELETE' as const, url: `/api/backoffice/customer/${c.id}/device-sessions/${sid}` },
      { method: 'PATCH' as const, url: '/api/backoffice/auth/device-session/update', payload: { customer_id: c.id, max_session: 3 } },
      { method: 'PATCH' as const, url: `/api/backoffice/customer/${c.id}`, payload: { vm_limit: 7, is_identity_verified: true } },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: { cookie: admin.cookie } });
      assert.equal(res.statusCode, 200, `${call.method} ${call.url}: ${res.body}`);
    }
    await enable2fa(t, clock, c.id);
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/backoffice/2fa/force-disable',
      headers: { cookie: admin.cookie },
      payload: { customer_id: c.id, reason: 'lost phone' },
    });
    assert.equal(off.statusCode, 200, off.body);
    const detail = await t.app.inject({ method: 'GET', url: `/api/backoffice/customer/${c.id}`, headers: { cookie: admin.cookie } });
    assert.equal(detail.json().data.vm_limit, 7);
    assert.equal(detail.json().data.max_session, 3);
    assert.equal(detail.json().data.is_2fa_active, false);
    assert.ok(!logged.some((l) => /embedded database busy/.test(l.msg) && !/database-busy\.test\.ts/.test(l.heldBy)), 'no other query waited');
  });
});

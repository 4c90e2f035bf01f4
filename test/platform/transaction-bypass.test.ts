import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresOnly } from '../helpers/database.js';

/**
 * The embedded database has one connection: a query that reaches the root database from inside an
 * open transaction, past the ambient transaction, waits for that transaction forever. On
 * PostgreSQL the pool would hide it, so under test the PostgreSQL database refuses it, and the
 * test app's close fails even when the code swallowed the error.
 */
describe('a query that bypasses the open transaction of its context', () => {
  let t: TestApp;
  let closed = false;

  before(async () => {
    t = await buildTestApp({
      worker: false,
      env: { DATABASE_WAIT_TIMEOUT_MS: '400' },
      log: pino({ level: 'silent' }),
      extend(app: FastifyInstance) {
        // built on the root database before the transaction, run inside it
        app.post('/_test/bypass', async () => {
          const db = t.container.db;
          const early = db.execute(sql`select 2`);
          await db.transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            await early;
          });
          return { message: 'done', data: null };
        });
        // the same error, swallowed by the code
        app.post('/_test/bypass-swallowed', async () => {
          const db = t.container.db;
          const early = db.execute(sql`select 2`);
          await db.transaction(async () => {
            await early.then(
              () => undefined,
              () => undefined,
            );
          });
          return { message: 'done', data: null };
        });
        // every query of the transaction's context through the root database object
        app.post('/_test/ambient', async () => {
          const db = t.container.db;
          await db.transaction(async () => {
            await db.execute(sql`select 1`);
            await t.container.database.raw.executeSql('select 2');
          });
          return { message: 'done', data: null };
        });
      },
    });
  });
  after(async () => {
    if (!closed) await t.close();
  });

  test('a query made through the root database inside a transaction runs on the transaction', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/ambient' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(t.container.database.bypasses.length, 0);
  });

  test('is refused on PostgreSQL and waits for the one connection on the embedded database', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/bypass' });
    if (t.container.database.kind === 'pglite') {
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'DATABASE_BUSY');
      return;
    }
    assert.equal(res.statusCode, 500, res.body);
    assert.equal(t.container.database.bypasses.length, 1);
    assert.match(t.container.database.bypasses[0]!.message, /bypassed the open transaction.*select 2/);
  });

  test('fails the test app when the code swallowed the error', postgresOnly('the embedded database answers 503 instead (above)'), async () => {
    const before = t.container.database.bypasses.length;
    const res = await t.app.inject({ method: 'POST', url: '/_test/bypass-swallowed' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(t.container.database.bypasses.length, before + 1);
    closed = true;
    await assert.rejects(t.close(), /2 queries bypassed their open transaction/);
  });
});

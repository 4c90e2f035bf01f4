import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { idempotencyRef } from '../../src/platform/idempotency/idempotency.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const keys = async (key: string) =>
  queryRows<{ state: string }>(t.container.db, sql`select state from idempotency_keys where scope = 'test.run' and key = ${key}`);

describe('idempotency.run', () => {
  test('without a key the work runs every time; with one, a repeat replays the first answer without running', async () => {
    const { db, idempotency } = t.container;
    let runs = 0;
    const work = (ref: ReturnType<typeof idempotencyRef>) =>
      idempotency.run<{ n: number }>(ref, (key) =>
        db.transaction(async (tx) => {
          await key.claim(tx);
          runs++;
          const answer = { n: runs };
          await key.complete(tx, answer);
          return answer;
        }),
      );
    assert.deepEqual(await work(undefined), { n: 1 });
    assert.deepEqual(await work(undefined), { n: 2 });
    const ref = idempotencyRef('test.run', 'customer:1', 'same', { a: 1 });
    assert.deepEqual(await work(ref), { n: 3 });
    assert.deepEqual(await work(ref), { n: 3 });
    assert.equal(runs, 3);
    await assert.rejects(work(idempotencyRef('test.run', 'customer:1', 'same', { a: 2 })), { code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  test('a failure after the claim committed releases the key, so a retry with it runs again', async () => {
    const { db, idempotency } = t.container;
    const ref = idempotencyRef('test.run', 'customer:1', 'fails-once', {});
    let attempt = 0;
    const work = () =>
      idempotency.run<string>(ref, async (key) => {
        await db.transaction(async (tx) => key.claim(tx));
        attempt++;
        if (attempt === 1) throw new Error('the gateway is down');
        await db.transaction(async (tx) => key.complete(tx, 'paid'));
        return 'paid';
      });
    await assert.rejects(work(), /the gateway is down/);
    assert.deepEqual(await keys('fails-once'), []);
    assert.equal(await work(), 'paid');
    assert.deepEqual(await keys('fails-once'), [{ state: 'done' }]);
    assert.equal(await work(), 'paid');
    assert.equal(attempt, 2);
  });
});

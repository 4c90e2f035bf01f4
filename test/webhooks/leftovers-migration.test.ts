import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DatabaseHandle } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { defineJob, JobQueue } from '../../src/platform/queue/queue.js';
import { databaseBefore, type OldDatabase } from '../helpers/old-database.js';

/*
 * A database of the time when webhook attempts were pg-boss jobs (every migration up to the one
 * before the durable-work one, and pg-boss holding the `webhooks-deliver` queue with a
 * job in it), then migrated as a start would: the queue and its jobs are gone, and so is the
 * column `webhook_deliveries.queued_at` that nothing reads.
 */
let db: DatabaseHandle;
let old: OldDatabase | undefined;

async function rows<T = Record<string, unknown>>(text: string): Promise<T[]> {
  return (await db.raw.executeSql(text)).rows as T[];
}

async function setUp(kind: 'postgres' | 'embedded'): Promise<void> {
  old = await databaseBefore(kind, '_durable_work');
  db = old.db;
  // the old code's queue, with a job still waiting in it
  const queue = new JobQueue(db, createLogger('silent'), { schedules: false });
  const deliver = defineJob<{ deliveryId: number }>({ name: 'webhooks.deliver', queue: 'webhooks-deliver', handler: async () => {} });
  queue.register(deliver);
  await queue.start();
  await queue.send(deliver, { deliveryId: 1 });
  await queue.stop();
}

async function tearDown(): Promise<void> {
  await old?.close();
  old = undefined;
}

// Not an HTTP suite: it runs on both databases itself.
for (const kind of ['postgres', 'embedded'] as const)
  describe(`webhook leftovers on a database of before the deliveries table was their queue (${kind})`, () => {
    before(() => setUp(kind));
    after(tearDown);
    test('the webhooks-deliver queue with its jobs and the queued_at column are dropped', async () => {
      assert.equal((await rows(`select 1 from pgboss.queue where name = 'webhooks-deliver'`)).length, 1);
      assert.equal((await rows(`select 1 from information_schema.columns where table_name = 'webhook_deliveries' and column_name = 'queued_at'`)).length, 1);

      await db.migrate();

      assert.deepEqual(await rows(`select name from pgboss.queue where name = 'webhooks-deliver'`), []);
      assert.deepEqual(await rows(`select id from pgboss.job where name = 'webhooks-deliver'`), []);
      assert.deepEqual(await rows(`select 1 from information_schema.columns where table_name = 'webhook_deliveries' and column_name = 'queued_at'`), []);
    });
  });

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/platform/logger.js';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { defineJob, JobQueue } from '../../src/platform/queue/queue.js';
import { embeddedSnapshot } from '../helpers/database.js';

const log = createLogger('silent');
const QUEUES = 12;

describe('worker start on the embedded database (one connection)', () => {
  let base: DatabaseHandle;
  let queue: JobQueue;
  /** Statements in the order they were answered: 'fetch' for a worker's fetch, else the SQL. */
  const answered: string[] = [];
  /** Called when a worker's fetch is sent to the database. */
  let onFetch = () => {};

  before(async () => {
    base = await openDatabase({ url: 'memory://', dataDir: '/tmp', waitMs: 10_000, log, snapshot: await embeddedSnapshot() });
    const observed: DatabaseHandle = {
      ...base,
      raw: {
        async executeSql(text, values) {
          const fetch = /^\s*WITH next as/i.test(text);
          if (fetch) onFetch();
          const result = await base.raw.executeSql(text, values);
          answered.push(fetch ? 'fetch' : text);
          return result;
        },
      },
    };
    queue = new JobQueue(observed, log, { pollingIntervalSeconds: 30 });
    for (let i = 0; i < QUEUES; i++) queue.register(defineJob<object>({ name: `test.start-${i}`, handler: async () => {} }));
    await queue.start();
  });
  after(async () => {
    await queue.stop();
    await base.close();
  });

  test('a query made while the workers start waits for one fetch, not for one per queue', async () => {
    const firstFetch = new Promise<void>((resolve) => (onFetch = resolve));
    answered.length = 0;
    const working = queue.work();
    await firstFetch;
    // the query comes from outside, as an HTTP request does: after the event loop has turned
    await new Promise((resolve) => setImmediate(resolve));
    await base.raw.executeSql('select 1');
    const fetchesBefore = answered.filter((s) => s === 'fetch').length;
    assert.ok(fetchesBefore <= 1, `${fetchesBefore} worker fetches were answered before the query`);
    await working;
    assert.ok(answered.filter((s) => s === 'fetch').length >= QUEUES, 'every queue got its worker');
  });
});

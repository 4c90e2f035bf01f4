import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../src/platform/logger.js';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/platform/db/database.js';
import { defineJob, JobQueue } from '../../src/platform/queue/queue.js';
import { eventually } from '../helpers/app.js';
import { createTestDatabase, embeddedSnapshot, type TestDatabase } from '../helpers/database.js';

const log = createLogger('silent');

for (const kind of ['postgres', 'embedded'] as const) {
  describe(`schedules on ${kind}`, () => {
    let testDb: TestDatabase | undefined;
    let database: DatabaseHandle;
    const ran: string[] = [];
    const everyMinute = defineJob<object>({ name: 'test.every-minute', schedule: '* * * * *', handler: async () => void ran.push('every-minute') });

    before(async () => {
      testDb = kind === 'postgres' ? await createTestDatabase() : undefined;
      database = await openDatabase({
        url: testDb?.url ?? 'memory://',
        dataDir: '/tmp',
        waitMs: 10_000,
        log,
        ...(kind === 'embedded' ? { snapshot: await embeddedSnapshot() } : {}),
      });
    });
    after(async () => {
      await database.close();
      await testDb?.drop();
    });

    test('a worker process sends the job of a due schedule (its cron runs in a second pg-boss instance)', async () => {
      const cronRan = async () => (await queryRows<{ at: string | null }>(database.db, sql`select cron_on::text as at from pgboss.version`))[0]?.at ?? null;
      const worker = new JobQueue(database, log, { pollingIntervalSeconds: 0.5 });
      worker.register(everyMinute);
      await worker.start();
      // the cron runs at most once a minute per database: forget when the template database's ran
      await database.db.execute(sql`update pgboss.version set cron_on = null`);
      await worker.work();
      try {
        await eventually(async () => ran.length > 0, 20_000);
        assert.notEqual(await cronRan(), null);
      } finally {
        await worker.stop();
      }
    });
  });
}

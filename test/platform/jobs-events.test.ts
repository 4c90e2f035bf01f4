import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { createLogger } from '../../src/platform/logger.js';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/platform/db/database.js';
import { EventBus } from '../../src/platform/events/event-bus.js';
import { defineJob, JobQueue } from '../../src/platform/queue/queue.js';
import { eventually } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const log = createLogger('silent');

for (const kind of ['postgres', 'embedded'] as const) {
  describe(`job queue and events on ${kind}`, () => {
    let testDb: TestDatabase | undefined;
    let database: DatabaseHandle;
    let queue: JobQueue;
    let events: EventBus;
    const handled: { n: number; jobId: string | undefined }[] = [];

    const echoJob = defineJob<{ n: number }>({
      name: 'test.echo',
      queue: 'test-high',
      handler: async ({ n }, ctx) => {
        handled.push({ n, jobId: ctx.jobId });
      },
    });
    const nightly = defineJob<object>({ name: 'test.nightly', schedule: '0 3 * * *', handler: async () => {} });

    before(async () => {
      testDb = kind === 'postgres' ? await createTestDatabase() : undefined;
      database = await openDatabase({ url: testDb?.url ?? 'memory://', dataDir: '/tmp', waitMs: 10_000, log: createLogger('silent') });
      if (kind === 'embedded') await database.migrate();
      await database.db.execute(sql`create table if not exists test_orders (id serial primary key, note text)`);
      queue = new JobQueue(database, log, { pollingIntervalSeconds: 0.5 });
      queue.register(echoJob, nightly);
      await queue.start();
      events = new EventBus(database, log);
    });
    after(async () => {
      await queue.stop();
      await database.close();
      await testDb?.drop();
    });

    const jobsInQueue = async () =>
      (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from pgboss.job where name = 'test-high'`))[0]!.n;

    test('a job sent inside a transaction that rolls back never exists', async () => {
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into test_orders (note) values ('rolled back')`);
          await queue.send(echoJob, { n: 1 }, { tx });
          throw new Error('business rule failed');
        }),
        /business rule failed/,
      );
      assert.equal(await jobsInQueue(), 0);
      const [orders] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from test_orders`);
      assert.equal(orders!.n, 0);
    });

    test('a job sent inside a committed transaction exists with the business row and is worked', async () => {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into test_orders (note) values ('committed')`);
        await queue.send(echoJob, { n: 2 }, { tx });
        // Not visible to another connection before it commits (inside, database.db runs on the transaction).
        if (kind === 'postgres') {
          const other = new pg.Client({ connectionString: testDb!.url });
          await other.connect();
          const { rows } = await other.query(`select count(*)::int as n from pgboss.job where name = 'test-high'`);
          await other.end();
          assert.equal(rows[0].n, 0);
        }
        assert.equal(await jobsInQueue(), 1);
      });
      assert.equal(await jobsInQueue(), 1);
      await queue.work();
      const done = await eventually(async () => handled.find((h) => h.n === 2));
      assert.ok(done.jobId);
    });

    test('inside a transaction the root database, raw SQL and a send without tx all run on it', async () => {
      await assert.rejects(
        database.db.transaction(async () => {
          await database.db.execute(sql`insert into test_orders (note) values ('ambient')`);
          await queue.send(echoJob, { n: 4 });
          const [seen] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from test_orders where note = 'ambient'`);
          assert.equal(seen!.n, 1);
          assert.equal((await database.raw.executeSql(`select count(*)::int as n from test_orders where note = 'ambient'`)).rows[0].n, 1);
          throw new Error('rollback');
        }),
        /rollback/,
      );
      const [orders] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from test_orders where note = 'ambient'`);
      assert.equal(orders!.n, 0);
      assert.ok(!handled.some((h) => h.n === 4));
    });

    test('recurring jobs are scheduled by the worker; runNow runs a job by hand', async () => {
      const rows = await queryRows<{ name: string; cron: string }>(database.db, sql`select name, cron from pgboss.schedule`);
      assert.deepEqual(rows, [{ name: 'test.nightly', cron: '0 3 * * *' }]);
      await queue.runNow('test.echo', { n: 3 });
      assert.ok(handled.some((h) => h.n === 3 && h.jobId === undefined));
      await assert.rejects(queue.runNow('no.such.job'), /unknown job/);
    });

    test('a worker start writes only the schedules that changed', async () => {
      const stamp = async () => (await queryRows<{ cron: string; at: string }>(database.db, sql`select cron, updated_on::text as at from pgboss.schedule where name = 'test.nightly'`))[0];
      const before = await stamp();
      const restart = async (cron: string) => {
        const again = new JobQueue(database, log, { pollingIntervalSeconds: 0.5 });
        again.register(echoJob, defineJob<object>({ name: 'test.nightly', schedule: cron, handler: async () => {} }));
        await again.start();
        await again.work();
        await again.stop();
      };
      await restart('0 3 * * *');
      assert.deepEqual(await stamp(), before, 'an unchanged schedule is not rewritten');
      await restart('30 4 * * *');
      assert.equal((await stamp())!.cron, '30 4 * * *');
      await restart('0 3 * * *');
      assert.equal((await stamp())!.cron, '0 3 * * *');
    });

    test('two scheduled jobs that share a queue keep a schedule each, and pg-boss fires both', async () => {
      const fired: string[] = [];
      const shared = (name: string, cron: string) => defineJob<object>({ name, queue: 'test-shared', schedule: cron, handler: async () => void fired.push(name) });
      const worker = new JobQueue(database, log, { pollingIntervalSeconds: 0.5, cronIntervalSeconds: 1 });
      worker.register(shared('test.shared-a', '* * * * *'), shared('test.shared-b', '*/1 * * * *'));
      await worker.start();
      await worker.work();
      try {
        assert.deepEqual(
          (await worker.schedules()).map((s) => [s.job, s.ok]),
          [
            ['test.shared-a', true],
            ['test.shared-b', true],
          ],
        );
        await eventually(async () => fired.includes('test.shared-a') && fired.includes('test.shared-b'), 30_000);
      } finally {
        await worker.stop();
      }
      assert.throws(
        () => new JobQueue(database, log).register(nightly, defineJob({ name: 'test.other', queue: 'test.nightly', handler: async () => {} })),
        /schedule queue of test\.nightly/,
        'no other job may be sent to a schedule\'s queue',
      );
    });

    test('a worker start removes schedules no job declares, and says loudly which declared one pg-boss does not hold as declared', async () => {
      const lines: { level: number; msg: string; job?: string; schedule?: string }[] = [];
      const captured = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      // what a shared queue held before every schedule had its own
      await database.raw.executeSql(`INSERT INTO pgboss.schedule (name, cron, timezone, data, options) VALUES ('test-high', '0 1 * * *', 'UTC', '{"task":"test.echo","payload":{}}', '{}')`, []);
      // another writer (an older release, say) keeps rewriting the nightly schedule
      await database.raw.executeSql(
        `CREATE FUNCTION test_rewrite_cron() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.cron := '0 0 1 1 *'; RETURN NEW; END $$`,
        [],
      );
      await database.raw.executeSql(`CREATE TRIGGER test_rewrite_cron BEFORE INSERT OR UPDATE ON pgboss.schedule FOR EACH ROW WHEN (NEW.name = 'test.nightly') EXECUTE FUNCTION test_rewrite_cron()`, []);
      await database.raw.executeSql(`UPDATE pgboss.schedule SET cron = cron WHERE name = 'test.nightly'`, []);
      try {
        const worker = new JobQueue(database, captured, { pollingIntervalSeconds: 0.5 });
        worker.register(echoJob, nightly);
        await worker.start();
        await worker.work();
        await worker.stop();
        const names = await queryRows<{ name: string }>(database.db, sql`select name from pgboss.schedule order by name`);
        assert.deepEqual(names, [{ name: 'test.nightly' }], 'the stale schedule is gone');
        assert.ok(lines.some((l) => l.level === 40 && l.schedule === 'test-high'), 'its removal is logged');
        const loud = lines.filter((l) => l.level >= 50);
        assert.equal(loud.length, 1, JSON.stringify(lines));
        assert.equal(loud[0]!.job, 'test.nightly');
        assert.match(loud[0]!.msg, /will not run by itself/);
        assert.deepEqual(
          (await worker.schedules()).map((s) => ({ ...s })),
          [{ job: 'test.nightly', declared: '0 3 * * *', registered: { cron: '0 0 1 1 *', timezone: 'UTC' }, ok: false }],
        );
      } finally {
        await database.raw.executeSql(`DROP TRIGGER test_rewrite_cron ON pgboss.schedule`, []);
        await database.raw.executeSql(`DROP FUNCTION test_rewrite_cron()`, []);
      }
    });

    test('events published in a transaction arrive on commit only', async () => {
      const got: unknown[] = [];
      const unsubscribe = await events.subscribe<{ id: number }>('tickets', (e) => got.push(e));
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await events.publish('tickets', { id: 1 }, tx);
          throw new Error('rollback');
        }),
      );
      await database.db.transaction(async (tx) => {
        await events.publish('tickets', { id: 2 }, tx);
      });
      await events.publish('tickets', { id: 3 });
      await eventually(async () => got.length >= 2);
      // notifications arrive in commit order: had the rolled-back one been sent, it would be first
      assert.deepEqual(got, [{ id: 2 }, { id: 3 }]);
      await unsubscribe();
      // a second subscriber of the same channel sees a marker after id 4: by then id 4 reached every subscriber
      const marker: unknown[] = [];
      const unsubscribeMarker = await events.subscribe<{ id: number }>('tickets', (e) => marker.push(e));
      await events.publish('tickets', { id: 4 });
      await events.publish('tickets', { id: 5 });
      await eventually(async () => marker.length >= 2);
      assert.deepEqual(marker, [{ id: 4 }, { id: 5 }]);
      assert.equal(got.length, 2);
      await unsubscribeMarker();
    });

    if (kind === 'postgres') {
      test('events cross connections (as between two server processes)', async () => {
        const other = await openDatabase({ url: testDb!.url, dataDir: '/tmp', waitMs: 10_000, log: createLogger('silent') });
        try {
          const otherBus = new EventBus(other, log);
          const got: unknown[] = [];
          const unsubscribe = await otherBus.subscribe('tickets', (e) => got.push(e));
          await events.publish('tickets', { type: 'NEW_TICKET', payload: { id: 9 } });
          await eventually(async () => got.length === 1);
          assert.deepEqual(got[0], { type: 'NEW_TICKET', payload: { id: 9 } });
          await unsubscribe();
        } finally {
          await other.close();
        }
      });
    }
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { queryRows } from '../../src/platform/db/database.js';
import { defineJob } from '../../src/platform/queue/queue.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';

let t: TestApp;

/** Routes that make PostgreSQL itself raise what a lost race raises, through the real driver. */
function raceRoutes(app: FastifyInstance) {
  const run = (statement: ReturnType<typeof sql>) => async () => {
    await t.container.db.transaction(async (tx) => {
      await tx.execute(statement);
    });
    return { message: 'OK', data: null };
  };
  app.post('/_test/fk-gone', run(sql`insert into _race_child (parent_id) values (424242)`));
  app.post('/_test/fk-in-use', run(sql`delete from _race_parent where id = 1`));
  app.post('/_test/unique-unnamed', run(sql`insert into _race_parent (id) values (1)`));
  app.post('/_test/unique-email', run(sql`insert into customers (email, password_hash, first_name, last_name, account_type) values ('Race.Email@example.test', 'x', 'A', 'B', 'P')`));
  for (const [path, state] of [
    ['serialization', 'serialization_failure'],
    ['deadlock', 'deadlock_detected'],
    ['lock-timeout', 'lock_not_available'],
    ['other', 'undefined_column'],
  ] as const) {
    app.post(`/_test/${path}`, run(sql.raw(`do $$ begin raise exception 'secret detail' using errcode = '${state}'; end $$`)));
  }
}

before(async () => {
  t = await buildTestApp({ worker: false, extend: raceRoutes });
  await t.container.db.execute(sql`create table _race_parent (id integer primary key)`);
  await t.container.db.execute(sql`create table _race_child (parent_id integer not null references _race_parent (id))`);
  await t.container.db.execute(sql`insert into _race_parent (id) values (1)`);
  await t.container.db.execute(sql`insert into _race_child (parent_id) values (1)`);
  await t.container.db.execute(
    sql`insert into customers (email, password_hash, first_name, last_name, account_type) values ('race.email@example.test', 'x', 'A', 'B', 'P')`,
  );
});
after(() => t.close());

async function expect(path: string, status: number, code: string) {
  const res = await t.app.inject({ method: 'POST', url: `/_test/${path}` });
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.json().code, code, res.body);
  assert.doesNotMatch(res.body, /secret detail|_race_|customers_email_unique|duplicate key|violates/);
  return res;
}

describe('database errors a lost race raises are 409 with a stable code, never 500', () => {
  test('a unique constraint: the code its module registered, else CONFLICT', async () => {
    await expect('unique-email', 409, 'EMAIL_TAKEN');
    await expect('unique-unnamed', 409, 'CONFLICT');
  });

  test('a foreign key: REFERENCE_GONE when the row it points to went away, IN_USE when a row still points to it', async () => {
    await expect('fk-gone', 409, 'REFERENCE_GONE');
    await expect('fk-in-use', 409, 'IN_USE');
  });

  test('a serialization failure, a deadlock or a lock timeout: 409 CONCURRENT_UPDATE with Retry-After', async () => {
    for (const path of ['serialization', 'deadlock', 'lock-timeout']) {
      const res = await expect(path, 409, 'CONCURRENT_UPDATE');
      assert.equal(res.headers['retry-after'], '1');
    }
  });

  test('any other database error stays a 500 that says nothing about SQL', async () => {
    await expect('other', 500, 'INTERNAL');
  });
});

describe('what staff can read of a failed query holds no SQL', () => {
  test('the error of a failed query is the database\'s words and SQLSTATE; the statement and its values stay out of the message', async () => {
    const err = await t.container.db.execute(sql`insert into _race_child (parent_id) values (${'424242-secret'}::int)`).then(
      () => assert.fail('the insert should fail'),
      (e: unknown) => e as Error & { query?: string },
    );
    assert.equal(err.message, 'invalid input syntax for type integer: "424242-secret" (SQLSTATE 22P02)');
    assert.doesNotMatch(err.message, /insert|_race_child|Failed query|params/i);
    assert.doesNotMatch(String(err.stack), /insert into|Failed query/);
    assert.match(String(err.query), /insert into _race_child/);
    assert.equal(JSON.stringify(err).includes('424242-secret'), false, 'the parameters are not enumerated (the log leaves them out)');
  });

  test('a job that fails on a database error: its run, as GET /api/backoffice/jobs shows it, names the error, not the statement', async () => {
    t.container.queue.register(
      defineJob({ name: 'test.numeric-overflow', description: 'fails on purpose', handler: async () => void (await t.container.db.execute(sql`select (${'700000000000000'}::numeric * 10000)::numeric(20,6) as amount`)) }),
    );
    await assert.rejects(t.container.queue.runNow('test.numeric-overflow'));
    const admin = await adminSession(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/jobs', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    const job = (res.json().data as { name: string; last_run: { status: string; error: string | null } | null }[]).find((j) => j.name === 'test.numeric-overflow');
    assert.equal(job?.last_run?.status, 'failed');
    assert.equal(job?.last_run?.error, 'numeric field overflow (SQLSTATE 22003)');
    const [row] = await queryRows<{ error: string }>(t.container.db, sql`select error from job_runs where name = 'test.numeric-overflow'`);
    assert.doesNotMatch(row!.error, /select|numeric\(20,6\)|700000000000000/);
  });
});

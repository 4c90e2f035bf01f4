import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { defineJob } from '../../src/platform/queue/queue.js';

import { buildTestApp, eventually, type TestApp, queueDrained } from '../helpers/app.js';
import { nodeEntry } from '../helpers/node-entry.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';

const run = promisify(execFile);
let t: TestApp;
let boss: { cookie: string; id: number };
let ran = 0;

before(async () => {
  t = await buildTestApp({ worker: false });
  t.container.queue.register(
    defineJob({ name: 'test.ok', queue: 'test', schedule: '5 * * * *', description: 'counts its runs', handler: async () => void ran++ }),
    defineJob({
      name: 'test.fail',
      handler: async () => {
        throw new Error('boom');
      },
    }),
  );
  boss = await adminSession(t);
});
after(() => t.close());

const list = (cookie = boss.cookie) => t.app.inject({ method: 'GET', url: '/api/backoffice/jobs', headers: { cookie } });
const runJob = (name: string, cookie = boss.cookie) => t.app.inject({ method: 'POST', url: `/api/backoffice/jobs/${encodeURIComponent(name)}/run`, headers: { cookie } });

describe('jobs administration', () => {
  test('lists every registered job with queue, schedule, description and last run', async () => {
    const res = await list();
    assert.equal(res.statusCode, 200);
    const jobs = res.json().data;
    const ok = jobs.find((j: any) => j.name === 'test.ok');
    // no worker started here: the schedule is declared but the job queue does not hold it
    assert.deepEqual(ok, {
      name: 'test.ok',
      queue: 'test',
      schedule: '5 * * * *',
      schedule_registered: false,
      next_run_at: null,
      last_scheduled_run: null,
      description: 'counts its runs',
      last_run: null,
    });
    const mail = jobs.find((j: any) => j.name === 'mail.deliver');
    assert.equal(mail.queue, 'mail');
  });

  test('Super Admin runs a job now: recorded in job_runs, shown as last run, audited', async () => {
    const res = await runJob('test.ok');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'succeeded');
    assert.equal(res.json().data.trigger, 'manual');
    assert.equal(ran, 1);
    const last = (await list()).json().data.find((j: any) => j.name === 'test.ok').last_run;
    assert.equal(last.status, 'succeeded');
    assert.ok(last.finished_at >= last.started_at);
    const audit = await queryRows<{ actor_id: number; target_id: string }>(t.container.db, sql`select actor_id, target_id from audit_logs where action = 'job.run'`);
    assert.deepEqual(audit, [{ actor_id: boss.id, target_id: 'test.ok' }]);
  });

  test('a failing job is reported with its error', async () => {
    const res = await runJob('test.fail');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.status, 'failed');
    assert.equal(res.json().data.error, 'boom');
    const [row] = await queryRows<{ status: string; error: string }>(t.container.db, sql`select status, error from job_runs where name = 'test.fail'`);
    assert.deepEqual(row, { status: 'failed', error: 'boom' });
  });

  test('unknown job → 404; anyone but Super Admin → 403 (even with manage_jobs), and nothing runs', async () => {
    assert.equal((await runJob('no.such.job')).statusCode, 404);
    const operator = await adminSession(t, { permissions: ['manage_jobs', 'view_jobs'] });
    const admin = await adminSession(t, { role: 'Admin' });
    const before = ran;
    for (const cookie of [operator.cookie, admin.cookie]) {
      const res = await runJob('test.ok', cookie);
      assert.equal(res.statusCode, 403, res.body);
    }
    assert.equal(ran, before);
    assert.equal((await list(admin.cookie)).statusCode, 200, 'Admin may look');
    assert.equal((await list((await adminSession(t, { role: 'Admin Support' })).cookie)).statusCode, 403);
  });

});

describe('worker runs', () => {
  test('jobs run by the worker are recorded too; high-volume ones only when they fail', async () => {
    const w = await buildTestApp();
    try {
      const cookie = (await adminSession(w)).cookie;
      await w.container.queue.send(w.container.services.sessions.pruneJob, {});
      const row = await eventually(async () =>
        (await queryRows<{ trigger: string; status: string }>(w.container.db, sql`select trigger, status from job_runs where name = 'auth.prune' and status <> 'running'`))[0],
      );
      assert.deepEqual(row, { trigger: 'worker', status: 'succeeded' });
      const res = await w.app.inject({ method: 'GET', url: '/api/backoffice/jobs', headers: { cookie } });
      assert.equal(res.json().data.find((j: any) => j.name === 'auth.prune').last_run.trigger, 'worker');

      // mail.deliver records failures only: a delivered mail leaves no run, a failing one does
      await w.container.queue.send(w.container.mailer.deliverJob, { outboxId: 987654 });
      await w.container.queue.send(w.container.mailer.deliverJob, { outboxId: 'not a number' as unknown as number });
      const failed = await eventually(async () =>
        (await queryRows<{ trigger: string; status: string; finished: boolean }>(
          w.container.db,
          sql`select trigger, status, finished_at is not null as finished from job_runs where name = 'mail.deliver'`,
        ))[0],
      );
      assert.deepEqual(failed, { trigger: 'worker', status: 'failed', finished: true });
      const delivered = await w.container.queue.send(w.container.mailer.deliverJob, { outboxId: 987655 });
      await queueDrained(w, { queues: [], ids: [delivered] });
      const runs = await queryRows<{ status: string }>(w.container.db, sql`select status from job_runs where name = 'mail.deliver'`);
      assert.ok(runs.every((r) => r.status === 'failed'), JSON.stringify(runs));
    } finally {
      await w.close();
    }
  });
});

describe('npm run job', () => {
  // The CLI is a second process on the service's database: a server's, as operators run it.
  let pgApp: TestApp;
  before(async () => {
    pgApp = await buildTestApp({ db: 'postgres', worker: false });
  });
  after(() => pgApp.close());
  const env = () => ({ ...process.env, DATABASE_URL: pgApp.database!.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-job-')), LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  const script = path.resolve('scripts/run-job.ts');

  test('runs a job by name with a JSON payload and records the run', async () => {
    const { stdout } = await run(process.execPath, [...nodeEntry(script), 'mail.deliver', '{"outboxId":123456}'], { env: env() });
    assert.match(stdout, /mail.deliver: done/);
    const rows = await queryRows<{ n: number }>(pgApp.container.db, sql`select count(*)::int as n from job_runs where name = 'mail.deliver' and trigger = 'manual'`);
    assert.equal(rows[0]!.n, 1);
  });

  test('an unknown job or a bad payload exits with 2 and lists the jobs', async () => {
    await assert.rejects(run(process.execPath, [...nodeEntry(script), 'nope'], { env: env() }), (err: any) => err.code === 2 && /mail\.deliver/.test(err.stderr));
    await assert.rejects(run(process.execPath, [...nodeEntry(script), 'mail.deliver', '{oops'], { env: env() }), (err: any) => err.code === 2);
  });
});

describe('platform.housekeeping', () => {
  test('drops Idempotency-Keys (answered or abandoned) after 7 days and job runs after 30, keeps the rest', async () => {
    const db = t.container.db;
    await db.execute(sql`insert into idempotency_keys (scope, owner, key, request_hash, state, created_at) values
      ('test', 'customer:1', 'old-done', 'h', 'done', now() - interval '8 days'),
      ('test', 'customer:1', 'old-in-progress', 'h', 'in_progress', now() - interval '8 days'),
      ('test', 'customer:1', 'recent-done', 'h', 'done', now() - interval '6 days')`);
    await db.execute(sql`insert into job_runs (name, trigger, started_at, finished_at, status) values
      ('test.ok', 'worker', now() - interval '31 days', now() - interval '31 days', 'succeeded'),
      ('test.ok', 'worker', now() - interval '29 days', now() - interval '29 days', 'succeeded')`);
    const res = await runJob('platform.housekeeping');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'succeeded');
    const keys = await queryRows<{ key: string }>(db, sql`select key from idempotency_keys where scope = 'test' order by key`);
    assert.deepEqual(keys.map((k) => k.key), ['recent-done']);
    const old = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from job_runs where started_at < now() - interval '30 days'`);
    assert.equal(old[0]!.n, 0);
    const kept = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from job_runs where started_at < now() - interval '28 days'`);
    assert.equal(kept[0]!.n, 1);
  });
});

describe('session and secret pruning', () => {
  test('auth.prune drops customer sessions ended over 90 days ago and expired mail tokens and 2FA challenges', async () => {
    const db = t.container.db;
    const c = await createCustomer(t);
    await db.execute(sql`insert into customer_sessions (customer_id, refresh_expires_at, created_at, revoked_at, user_agent) values
      (${c.id}, now() + interval '9 days', now() - interval '120 days', now() - interval '91 days', 'revoked-old'),
      (${c.id}, now() - interval '91 days', now() - interval '121 days', null, 'expired-old'),
      (${c.id}, now() + interval '9 days', now() - interval '20 days', now() - interval '89 days', 'revoked-recent'),
      (${c.id}, now() + interval '20 days', now() - interval '10 days', null, 'live')`);
    await db.execute(sql`insert into customer_auth_tokens (customer_id, purpose, token_hash, expires_at) values
      (${c.id}, 'test', 'expired-2d', now() - interval '2 days'),
      (${c.id}, 'test', 'expired-1h', now() - interval '1 hour'),
      (${c.id}, 'test', 'valid', now() + interval '1 hour')`);
    await db.execute(sql`insert into customer_mfa_challenges (customer_id, expires_at) values (${c.id}, now() - interval '2 days'), (${c.id}, now() + interval '5 minutes')`);

    const res = await runJob('auth.prune');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'succeeded');
    const sessions = await queryRows<{ user_agent: string }>(db, sql`select user_agent from customer_sessions where customer_id = ${c.id} order by user_agent`);
    assert.deepEqual(sessions.map((r) => r.user_agent), ['live', 'revoked-recent']);
    const tokens = await queryRows<{ token_hash: string }>(db, sql`select token_hash from customer_auth_tokens where customer_id = ${c.id} order by token_hash`);
    assert.deepEqual(tokens.map((r) => r.token_hash), ['expired-1h', 'valid']);
    const challenges = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from customer_mfa_challenges where customer_id = ${c.id}`);
    assert.equal(challenges[0]!.n, 1);
  });

  test('admins.prune-sessions drops staff sessions ended over 90 days ago and spent set-password links; platform.refresh-tokens-prune expired refresh tokens', async () => {
    const db = t.container.db;
    const live = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from admin_sessions where revoked_at is null and expires_at > now()`);
    await db.execute(sql`insert into admin_sessions (id, admin_id, role_name, permissions, created_at, last_access_at, expires_at, revoked_at) values
      ('00000000-0000-4000-8000-000000000001', ${boss.id}, 'Super Admin', '[]', now() - interval '100 days', now() - interval '95 days', now() - interval '91 days', null),
      ('00000000-0000-4000-8000-000000000002', ${boss.id}, 'Super Admin', '[]', now() - interval '100 days', now() - interval '95 days', now() + interval '1 day', now() - interval '92 days'),
      ('00000000-0000-4000-8000-000000000003', ${boss.id}, 'Super Admin', '[]', now() - interval '30 days', now() - interval '29 days', now() - interval '29 days', null)`);
    await db.execute(sql`insert into refresh_tokens (token_hash, realm, session_id, expires_at, used_at, created_at) values
      ('t-old', 'admin', '00000000-0000-4000-8000-000000000003', now() - interval '2 days', now() - interval '29 days', now() - interval '30 days'),
      ('t-fresh', 'admin', '00000000-0000-4000-8000-000000000003', now() + interval '1 day', null, now())`);

    await db.execute(sql`insert into admin_password_links (admin_id, token_hash, expires_at, used_at, created_at) values
      (${boss.id}, 'link-expired-2d', now() - interval '2 days', null, now() - interval '3 days'),
      (${boss.id}, 'link-used-2d', now() + interval '1 day', now() - interval '2 days', now() - interval '3 days'),
      (${boss.id}, 'link-used-1h', now() + interval '1 day', now() - interval '1 hour', now() - interval '2 hours'),
      (${boss.id}, 'link-live', now() + interval '1 day', null, now())`);

    const res = await runJob('admins.prune-sessions');
    assert.equal(res.json().data.status, 'succeeded', res.body);
    assert.equal((await runJob('platform.refresh-tokens-prune')).json().data.status, 'succeeded');
    const ids = await queryRows<{ id: string }>(db, sql`select id from admin_sessions where id::text like '00000000-0000-4000-8000-%' order by id`);
    assert.deepEqual(ids.map((r) => r.id), ['00000000-0000-4000-8000-000000000003']);
    const tokens = await queryRows<{ token_hash: string }>(db, sql`select token_hash from refresh_tokens where token_hash like 't-%'`);
    assert.deepEqual(tokens.map((r) => r.token_hash), ['t-fresh']);
    const links = await queryRows<{ token_hash: string }>(db, sql`select token_hash from admin_password_links where token_hash like 'link-%' order by token_hash`);
    assert.deepEqual(links.map((r) => r.token_hash), ['link-live', 'link-used-1h'], 'links spent over a day ago are gone');
    const stillLive = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from admin_sessions where revoked_at is null and expires_at > now()`);
    assert.equal(stillLive[0]!.n, live[0]!.n, 'live staff sessions are untouched');
    assert.equal((await list()).statusCode, 200, 'the running admin is still logged in');
  });
});

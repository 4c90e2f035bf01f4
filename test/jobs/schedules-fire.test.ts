import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { JobQueue } from '../../src/platform/queue/queue.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { fund } from '../helpers/compute.js';
import { createCustomer } from '../helpers/customers.js';
import { insertPrice, one } from '../charging/helpers.js';

/*
 * A server left alone: nobody runs a job by hand. The worker writes the schedules of the whole job
 * registry (as `npm start` builds it) and pg-boss's own cron fires them. Every schedule is made
 * "every minute" here, so each fires within seconds; that the declared expressions are what pg-boss
 * holds is the first test.
 */
const clock = new ManualClock('2026-02-27T22:10:00Z');
let t: TestApp;
let boss: { cookie: string };
before(async () => {
  t = await buildTestApp({ clock, worker: false, schedules: true });
  boss = await adminSession(t);
});
after(() => t.close());

interface JobListItem {
  name: string;
  schedule: string | null;
  schedule_registered: boolean | null;
  next_run_at: string | null;
  last_scheduled_run: { state: string; created_at: string; started_at: string | null; finished_at: string | null } | null;
  last_run: { trigger: string; status: string; error: string | null } | null;
}

async function jobList(): Promise<JobListItem[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/jobs', headers: { cookie: boss.cookie } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

const scheduled = () => t.container.queue.definitions().filter((d) => d.schedule);

describe('the schedules of every scheduled job', () => {
  test('a worker start gives every scheduled job a schedule of its own, exactly as declared, and the jobs page shows when it fires next', async () => {
    const jobs = scheduled();
    assert.ok(jobs.length >= 20, `the registry's scheduled jobs (${jobs.length})`);
    // several scheduled jobs share a queue for what is sent to them: the case that lost schedules
    const shared = jobs.filter((d) => d.queue && jobs.some((o) => o !== d && o.queue === d.queue));
    assert.ok(shared.length >= 4, 'jobs sharing a queue are among them');
    // a worker process of the same code starts on this database, and stops again
    const worker = new JobQueue(t.container.database, createLogger('silent'), { pollingIntervalSeconds: 0.5 });
    worker.register(...t.container.queue.definitions());
    await worker.start();
    await worker.work();
    await worker.stop();
    const held = await queryRows<{ name: string; cron: string; timezone: string; task: string }>(
      t.container.db,
      sql`select name, cron, timezone, data->>'task' as task from pgboss.schedule order by name`,
    );
    assert.deepEqual(
      held,
      jobs.map((d) => ({ name: d.name, cron: d.schedule!, timezone: 'UTC', task: d.name })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    const list = await jobList();
    for (const d of jobs) {
      const item = list.find((j) => j.name === d.name)!;
      assert.equal(item.schedule_registered, true, d.name);
      assert.ok(item.next_run_at && new Date(item.next_run_at) > clock.now(), `${d.name} fires next after now`);
    }
    const hourly = list.find((j) => j.name === 'charging.hourly')!;
    assert.equal(hourly.next_run_at, '2026-02-27T23:05:00.000Z', 'five past the next hour, on the platform clock');
    assert.equal(list.find((j) => j.name === 'charging.postpaid-invoices')!.next_run_at, '2026-03-01T00:30:00.000Z');
    for (const j of list.filter((x) => !x.schedule)) assert.equal(j.schedule_registered, null);
  });

  test('left alone, the server charges every complete hour, runs the sweep, issues the monthly invoices and runs every other scheduled job', async () => {
    await insertPrice(t, 'tier:931', '73000', '2026-01-01T00:00:00Z'); // 100.000000 an hour
    const prepaid = await createCustomer(t);
    await fund(t, prepaid.id, '1000000.00');
    const postpaid = await createCustomer(t, { billingType: 'POSTPAID' });
    const m = t.container.services.metering;
    for (const c of [prepaid, postpaid]) {
      await m.open({ customerId: c.id, resourceType: 'vm', resourceId: `vm-${c.id}`, description: `VM ${c.id}`, priceKey: 'tier:931', locationId: 1, at: clock.now() });
    }
    // suspended while below zero; its balance came back above zero by a way that lifts nothing
    const recovered = await createCustomer(t);
    await fund(t, recovered.id, '5000.00');
    await t.container.db.execute(sql`update customers set suspended_at = ${clock.now().toISOString()}::timestamptz, suspend_reason = 'INSUFFICIENT_BALANCE' where id = ${recovered.id}`);

    clock.set('2026-03-01T00:45:00Z');
    boss = await adminSession(t); // the staff session of the 27th has ended
    // this process's worker starts with every schedule due each minute
    for (const d of scheduled()) d.schedule = '* * * * *';
    await t.container.startWorker();
    await eventually(
      async () => {
        const list = await jobList();
        return scheduled().every((d) => list.find((j) => j.name === d.name)?.last_scheduled_run?.state === 'completed') ? list : false;
      },
      100_000,
      250,
    ).catch(async (err) => {
      const list = await jobList();
      const stuck = scheduled().map((d) => list.find((j) => j.name === d.name)!).filter((j) => j.last_scheduled_run?.state !== 'completed');
      throw new Error(`${(err as Error).message}: not run by their schedule: ${JSON.stringify(stuck.map((j) => [j.name, j.last_scheduled_run, j.last_run]))}`);
    });
    // the last hourly run saw the moved clock (an earlier one may have fired at a real five past)
    await eventually(async () => (await one<{ n: number }>(t, sql`select count(*)::int as n from charge_hours where completed_at is not null`)).n === 26, 100_000, 250);

    const manual = await one<{ n: number }>(t, sql`select count(*)::int as n from job_runs where trigger = 'manual'`);
    assert.equal(manual.n, 0, 'no job was run by hand');
    // every complete hour: from 22:00 on the 27th to 23:00 on the 28th (the hour that ended at 00:00)
    const hours = await one<{ first: string; last: string; n: number }>(
      t,
      sql`select min(hour) as first, max(hour) as last, count(*)::int as n from charge_hours where completed_at is not null`,
    );
    assert.equal(new Date(hours.first).toISOString(), '2026-02-27T22:00:00.000Z');
    assert.equal(new Date(hours.last).toISOString(), '2026-02-28T23:00:00.000Z');
    assert.equal(hours.n, 26);
    // 50 minutes of the first hour and 25 whole hours at 100 an hour
    const balance = await one<{ b: string }>(t, sql`select actual_balance::text as b from wallets where customer_id = ${prepaid.id}`);
    assert.equal(balance.b, '997416.67');
    await eventually(async () => (await one<{ suspended_at: Date | null }>(t, sql`select suspended_at from customers where id = ${recovered.id}`)).suspended_at === null, 100_000, 250);
    const invoice = await one<{ n: number; period: string }>(
      t,
      sql`select count(*)::int as n, min(to_char(period_start at time zone 'UTC', 'YYYY-MM')) as period from postpaid_invoices where customer_id = ${postpaid.id}`,
    );
    assert.deepEqual({ ...invoice }, { n: 1, period: '2026-02' }, "February's postpaid invoice was issued on the 1st");
  });
});

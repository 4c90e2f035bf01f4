import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

/*
 * Nobody runs a job by hand: the worker writes the schedules and pg-boss's cron fires them. The
 * backups' schedule and sweep are made "every minute" here (as test/jobs/schedules-fire.test.ts
 * does for every job), so they fire within seconds; the slot of the plan has come on the platform
 * clock.
 */
const HOUR = 3_600_000;
const clock = new ManualClock(new Date(Math.floor(Date.now() / HOUR) * HOUR + 10 * 60_000));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false, schedules: true });
});
after(() => t.close());

test('left alone, the worker takes the backup of a plan whose window came, once, and it completes', async () => {
  // the chunk store's sweep keeps its own schedule: fired at the same minute, it holds the store
  // and the backup waits a minute of the platform clock, which stays put here
  for (const d of t.container.queue.definitions().filter((x) => x.name.startsWith('backups.') && x.name !== 'backups.sweep-store' && x.schedule)) d.schedule = '* * * * *';
  await t.container.startWorker();
  const c = await customerSession(t);
  await fund(t, c.id);
  const res = await createVm(t, c.cookie, { name: 'nightly', location_id: 1, tier_id: await seededTier(t) });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().data.id as number;
  // the VM is made before its plan's slot comes: the scheduled backup finds it Running, not being
  // made (which would wait on the platform clock, which stays put here: moved on while the backup
  // runs, it would let the backup's lease run out under it)
  await vmJobsDone(t);
  const next = new Date(clock.now().getTime() + HOUR - 10 * 60_000);
  const plan = await t.app.inject({ method: 'PUT', url: `/api/compute/vm/${id}/backups/plan`, headers: { cookie: c.cookie }, payload: { enabled: true, hour: next.getUTCHours() } });
  assert.equal(plan.statusCode, 200, plan.body);
  assert.equal(plan.json().data.next_run_at, next.toISOString());

  clock.set(new Date(next.getTime() + 2 * 60_000));
  const done = await eventually(
    async () => {
      const rows = await queryRows<{ status: string; trigger: string; slot: Date }>(t.container.db, sql`select status, trigger, slot from vm_backups where vm_id = ${id}`);
      if (rows.length === 1 && rows[0]!.status === 'completed') return rows[0];
      return undefined;
    },
    120_000,
    500,
  );
  assert.equal(done.trigger, 'scheduled');
  assert.equal(new Date(done.slot).toISOString(), next.toISOString());
  const manual = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from job_runs where trigger = 'manual'`);
  assert.equal(manual[0]!.n, 0, 'no job was run by hand');
  await new Promise((r) => setTimeout(r, 2_000));
  const [count] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from vm_backups where vm_id = ${id}`);
  assert.equal(count!.n, 1, 'one backup per slot, however often the schedule fires');
});

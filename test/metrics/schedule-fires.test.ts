import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

/*
 * Nobody runs a job by hand: the worker writes the schedules and pg-boss's cron fires
 * `metrics.collect` each minute by itself. Its first run is a baseline, the next stores the VM's
 * point (the platform clock moves on meanwhile, so each run is of a later minute).
 */
const clock = new ManualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false, schedules: true });
});
after(() => t.close());

test('left alone, the worker collects the metrics of a Running VM every minute', { timeout: 240_000 }, async () => {
  const c = await customerSession(t);
  await fund(t, c.id);
  const res = await createVm(t, c.cookie, { name: 'watched', location_id: 1, tier_id: await seededTier(t) });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().data.id as number;
  assert.equal(t.container.queue.definitions().find((d) => d.name === 'metrics.collect')?.schedule, '* * * * *');
  await t.container.startWorker();
  await vmJobsDone(t);
  const points = await eventually(
    async () => {
      const rows = await queryRows<{ minute: Date; samples: number }>(t.container.db, sql`select minute, samples from vm_metrics_minute where vm_id = ${id}`);
      if (rows.length > 0) return rows;
      clock.advance(10_000);
      return undefined;
    },
    200_000,
    500,
  );
  assert.equal(points[0]!.samples, 1);
  const manual = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from job_runs where trigger = 'manual'`);
  assert.equal(manual[0]!.n, 0, 'no job was run by hand');
  const [traffic] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from vm_traffic_monthly where vm_id = ${id}`);
  assert.equal(traffic!.n, 1);
});

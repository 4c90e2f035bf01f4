/** The money of a snapshot: per GB-month of its stored size, charged once per hour-part, on an injected clock. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { fund, seededTier, simulator } from '../helpers/compute.js';
import { createCustomer } from '../helpers/money.js';
import { VM_KIND } from '../../src/modules/compute/index.js';
import { SNAPSHOT_KIND } from '../../src/modules/snapshots/index.js';

const HOUR = 3_600_000;
// the last whole hour: the test's instants stay near the real time
const H0 = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
const clock = new ManualClock(new Date(H0));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

test('a snapshot of 10 GB kept 3 hours is charged exactly 3 hour-parts of its GB-month price, once each', async () => {
  const c = await createCustomer(t);
  await fund(t, c.id);
  const { compute, snapshots, pricing, charging } = t.container.services;
  const vm = await compute.create(c.id, { name: 'db-1', location_id: 1, tier_id: await seededTier(t) });
  await t.container.lifecycle.run(VM_KIND, vm.id);
  // the datacenter stores exactly 10 GiB of it
  const dc = simulator(t).snapshots;
  const take = dc.takeSnapshot.bind(dc);
  dc.takeSnapshot = async (spec) => ({ ...(await take(spec)), disks: [{ disk: 'boot', storedBytes: 10 * 1024 ** 3, diskGb: vm.diskGb }] });

  clock.set(new Date(H0 + HOUR)); // taken on the hour
  const s = await snapshots.create(c.id, vm.id, { name: 'nightly' });
  await t.container.lifecycle.run(VM_KIND, vm.id);
  assert.equal((await snapshots.get(c.id, s.id)).sizeGb, 10);

  clock.set(new Date(H0 + 4 * HOUR)); // kept exactly 3 hours
  await snapshots.delete(c.id, s.id);
  await t.container.lifecycle.run(SNAPSHOT_KIND, s.id);
  assert.equal((await snapshots.list(c.id, { includeDeleted: true }, { page: 1, limit: 10 })).items[0]!.status, 'Deleted');

  clock.set(new Date(H0 + 5 * HOUR + 60_000));
  await charging.runHourly();
  await charging.runHourly(); // a second run charges nothing again
  clock.set(new Date(H0 + 6 * HOUR + 60_000));
  await charging.runHourly();

  const component = await pricing.componentByCode('snapshot_gb');
  const price = await pricing.priceAt(`component:${component.id}`, 1);
  assert.equal(price!.monthlyPrice, '730.00');
  const rows = await queryRows<{ hour: Date; seconds: number; amount: string; quantity: string }>(
    t.container.db,
    sql`select u.hour, u.seconds, u.amount::text as amount, u.quantity::text as quantity from usage_records u join meters m on m.id = u.meter_id
        where m.resource_type = 'snapshot' and m.resource_id = ${String(s.id)} order by u.hour`,
  );
  // 10 GB × 730.00 / 730 h = 10.000000 an hour, for each of its three hours, once
  assert.deepEqual(
    rows.map((r) => [new Date(r.hour).getTime() - H0, r.seconds, r.amount, r.quantity]),
    [
      [HOUR, 3600, '10.000000', '10.000000'],
      [2 * HOUR, 3600, '10.000000', '10.000000'],
      [3 * HOUR, 3600, '10.000000', '10.000000'],
    ],
  );
  const [total] = await queryRows<{ n: string }>(t.container.db, sql`select sum(u.amount)::text as n from usage_records u join meters m on m.id = u.meter_id where m.resource_type = 'snapshot' and m.resource_id = ${String(s.id)}`);
  assert.equal(Number(total!.n).toFixed(6), '30.000000');
});

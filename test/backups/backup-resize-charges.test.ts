/** The money of backups across a resize: the share follows the VM's tier from the instant of the resize, to the second. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createVm, fund, getVm, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { insertPrice } from '../charging/helpers.js';

const HOUR = 3_600_000;
const START = Date.parse('2030-01-01T10:00:00Z');
const clock = new ManualClock(new Date(START));
let t: TestApp;
let small: number;
let medium: number;

before(async () => {
  t = await buildTestApp({ clock });
  small = await seededTier(t, 'gp.small');
  medium = await seededTier(t, 'gp.medium');
  // round prices: 100 and 200 an hour in location 1
  await insertPrice(t, `tier:${small}`, '73000', '2029-12-31T00:00:00Z');
  await insertPrice(t, `tier:${medium}`, '146000', '2029-12-31T00:00:00Z');
});
after(() => t.close());

test('a resize switches the backup meter to the new tier at that instant: the hour is split to the second, in exact money; the plan shows the new price', async () => {
  const c = await customerSession(t);
  await fund(t, c.id);
  const made = await createVm(t, c.cookie, { name: 'grows', location_id: 1, tier_id: small, public_ip: false });
  assert.equal(made.statusCode, 201, made.body);
  await vmJobsDone(t);
  const id = made.json().data.id as number;
  const on = await t.app.inject({ method: 'PUT', url: `/api/compute/vm/${id}/backups/plan`, headers: { cookie: c.cookie }, payload: { enabled: true } });
  assert.equal(on.statusCode, 200, on.body);
  assert.equal(on.json().data.monthly_price, 14600, '20% of 73000');

  clock.set(new Date(START + HOUR + 20 * 60_000 + 30_000)); // 11:20:30: 1230 s on gp.small, 2370 s on gp.medium
  const cookie = await loginCustomer(t, c.email, c.password);
  const resized = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/resize`, headers: { cookie }, payload: { tier_id: medium } });
  assert.equal(resized.statusCode, 200, resized.body);
  await vmJobsDone(t);
  assert.equal((await getVm(t, cookie, id)).tier_id, medium);

  const meters = await queryRows<{ price_key: string; quantity: string; stopped_at: Date | null }>(
    t.container.db,
    sql`select price_key, quantity::text, stopped_at from meters where resource_type = 'vm_backup' and resource_id = ${String(id)} order by id`,
  );
  assert.deepEqual(
    meters.map((m) => [m.price_key, Number(m.quantity), m.stopped_at === null ? null : new Date(m.stopped_at).toISOString()]),
    [
      [`tier:${small}`, 0.2, new Date(START + HOUR + 1230_000).toISOString()],
      [`tier:${medium}`, 0.2, null],
    ],
    'closed at the resize, opened again on the new tier at the same instant',
  );
  const plan = await t.app.inject({ method: 'GET', url: `/api/compute/vm/${id}/backups`, headers: { cookie } });
  assert.equal(plan.json().data.plan.monthly_price, 29200, '20% of 146000');

  clock.set(new Date(START + 3 * HOUR + 5 * 60_000));
  await t.container.services.charging.runHourly();
  const rows = await queryRows<{ hour: Date; price_key: string; seconds: number; hourly_price: string; amount: string }>(
    t.container.db,
    sql`select u.hour, m.price_key, u.seconds, u.hourly_price::text, u.amount::text from usage_records u join meters m on m.id = u.meter_id
        where m.resource_type = 'vm_backup' and m.resource_id = ${String(id)} order by u.hour, m.id`,
  );
  assert.deepEqual(
    rows.map((r) => [new Date(r.hour).getTime() - START, r.price_key, r.seconds, r.hourly_price, r.amount]),
    [
      [0, `tier:${small}`, 3600, '100.000000', '20.000000'],
      // 100 × 0.2 × 1230 / 3600 and 200 × 0.2 × 2370 / 3600
      [HOUR, `tier:${small}`, 1230, '100.000000', '6.833333'],
      [HOUR, `tier:${medium}`, 2370, '200.000000', '26.333333'],
      [2 * HOUR, `tier:${medium}`, 3600, '200.000000', '40.000000'],
    ],
  );
});

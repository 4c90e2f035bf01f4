import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, loginAdmin } from '../helpers/admins.js';
import { fund } from '../helpers/compute.js';
import { createCustomer, ledgerOf, wallet, walletsVsLedger } from '../helpers/money.js';
import { insertPrice } from './helpers.js';

/*
 * One customer whose charge fails (here: a price accepted before prices were bounded, 700000000000000
 * a GB-month, times a 10,000 GB volume: no usage column holds it) never stops the hourly charge of
 * the others. The failing chunk is halved until that customer is alone; they are set aside with a
 * record staff can read (no SQL), retried alone later, and invoiced when their hours are charged.
 */

const HOUR = 3_600_000;
const now = new Date();
// the first day of the previous month: the hours before it belong to the month before that
const BOUNDARY = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
const START = BOUNDARY - 3 * HOUR;
const PERIOD = new Date(START).toISOString().slice(0, 7);
const clock = new ManualClock(new Date(START));

let t: TestApp;
let staff: { cookie: string; email: string; password: string };
before(async () => {
  t = await buildTestApp({ clock, worker: false });
  staff = await adminSession(t);
  // a price from before the bound (the table refuses such a row today; rows written before it stay)
  await t.container.db.execute(sql`alter table price_versions drop constraint price_versions_bounded`);
  await insertPrice(t, 'storage_tier:7001', '700000000000000', new Date(START - 100 * HOUR).toISOString());
  await insertPrice(t, 'tier:7001', '73000', new Date(START - 100 * HOUR).toISOString());
});
after(() => t.close());

async function bo(method: 'GET' | 'POST', url: string) {
  const send = () => t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: staff.cookie } });
  const res = await send();
  if (res.statusCode !== 401) return res;
  staff.cookie = await loginAdmin(t, staff.email, staff.password);
  return send();
}

async function meter(customerId: number, id: string, priceKey: string, quantity = '1') {
  await t.container.services.metering.open({ customerId, resourceType: 'vm', resourceId: id, description: id, priceKey, locationId: 1, quantity, at: new Date(START) });
}

const usageHours = async (customerId: number) =>
  (await queryRows<{ hour: Date | string }>(t.container.db, sql`select distinct hour from usage_charges where customer_id = ${customerId} order by hour`)).map((r) =>
    new Date(r.hour).toISOString(),
  );
const hoursFrom = (from: number, n: number) => Array.from({ length: n }, (_, i) => new Date(from + i * HOUR).toISOString());

describe('one customer cannot stop the hourly charge of the others', () => {
  test('the failing customers are set aside, every other customer is charged, staff see why (no SQL), and a retry charges the hours they missed', async () => {
    const a = await createCustomer(t);
    const bad = await createCustomer(t);
    const c = await createCustomer(t, { billingType: 'POSTPAID' });
    const badPostpaid = await createCustomer(t, { billingType: 'POSTPAID' });
    for (const x of [a, bad]) await fund(t, x.id, '1000000.00');
    await meter(a.id, 'a-vm', 'tier:7001');
    await meter(bad.id, 'bad-vm', 'tier:7001');
    await meter(bad.id, 'bad-volume', 'storage_tier:7001', '10000');
    await meter(c.id, 'c-vm', 'tier:7001');
    await meter(badPostpaid.id, 'badpp-vm', 'tier:7001');
    await meter(badPostpaid.id, 'badpp-volume', 'storage_tier:7001', '10000');

    // three hours are due: the run (the job, as staff start it) succeeds
    clock.set(new Date(BOUNDARY + 5 * 60_000));
    const run = await bo('POST', '/jobs/charging.hourly/run');
    assert.equal(run.statusCode, 200, run.body);
    assert.equal(run.json().data.status, 'succeeded', run.body);
    for (const x of [a, c]) assert.deepEqual(await usageHours(x.id), hoursFrom(START, 3), 'the others are charged every hour');
    for (const x of [bad, badPostpaid]) assert.deepEqual(await usageHours(x.id), []);
    assert.equal((await ledgerOf(t, a.id)).filter((l) => l.type === BalanceLogType.Charge).length, 3);
    const open = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from charge_hours where completed_at is null`);
    assert.equal(open[0]!.n, 0, 'the cursor moved on: every hour is complete');

    // staff see who was set aside and why, in words without SQL
    const list = await bo('GET', '/billing/charge-failures');
    assert.equal(list.statusCode, 200, list.body);
    const failures = list.json().data as { customer_id: number; error_code: string; error: string; first_hour: string; attempts: number }[];
    assert.deepEqual(failures.map((f) => f.customer_id).sort(), [bad.id, badPostpaid.id].sort());
    for (const f of failures) {
      assert.equal(f.error_code, '22003');
      assert.equal(f.error, 'numeric field overflow (SQLSTATE 22003)');
      assert.equal(f.first_hour, new Date(START).toISOString());
      assert.equal(f.attempts, 1);
    }
    assert.doesNotMatch(list.body, /insert|select|usage_records|700000000000000/i);
    assert.match((await t.app.inject({ method: 'GET', url: '/metrics' })).body, /^charge_failures_open 2$/m);

    // the month's postpaid invoices: the customer set aside waits, the other one is invoiced
    await t.container.services.postpaid.issueMonthly(PERIOD);
    const invoiced = async (customerId: number) =>
      queryRows<{ subtotal: string }>(t.container.db, sql`select subtotal::text from postpaid_invoices where customer_id = ${customerId} and period_start = ${new Date(Date.UTC(new Date(START).getUTCFullYear(), new Date(START).getUTCMonth(), 1)).toISOString()}::timestamptz`);
    assert.equal((await invoiced(c.id)).length, 1);
    assert.equal((await invoiced(badPostpaid.id)).length, 0);

    // the next hour: the others go on; the retry fails again and waits longer
    clock.set(new Date(BOUNDARY + HOUR + 5 * 60_000));
    await t.container.services.charging.runHourly();
    assert.deepEqual(await usageHours(a.id), hoursFrom(START, 4));
    const again = (await bo('GET', '/billing/charge-failures')).json().data as { customer_id: number; attempts: number; next_retry_at: string }[];
    assert.ok(again.every((f) => f.attempts === 2 && Date.parse(f.next_retry_at) === BOUNDARY + 3 * HOUR + 5 * 60_000), JSON.stringify(again));

    // the cause is fixed (the volume's quantity corrected); staff retry one customer now, the hourly run the other
    await t.container.db.execute(sql`update meters set quantity = 1 where resource_id in ('bad-volume', 'badpp-volume')`);
    assert.equal((await bo('POST', '/billing/charge-failures/999999/retry')).statusCode, 404);
    const retried = await bo('POST', `/billing/charge-failures/${bad.id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.ok(retried.json().data.resolved_at, retried.body);
    assert.deepEqual(await usageHours(bad.id), hoursFrom(START, 4), 'every hour it missed, in order');
    assert.equal((await ledgerOf(t, bad.id)).filter((l) => l.type === BalanceLogType.Charge).length, 4);

    clock.set(new Date(BOUNDARY + 3 * HOUR + 5 * 60_000));
    await t.container.services.charging.runHourly();
    for (const x of [a, bad, c, badPostpaid]) assert.deepEqual(await usageHours(x.id), hoursFrom(START, 6), `customer ${x.id}`);
    assert.deepEqual((await bo('GET', '/billing/charge-failures')).json().data, []);
    const resolved = (await bo('GET', '/billing/charge-failures?resolved=true')).json().data as { customer_id: number }[];
    assert.deepEqual(resolved.map((f) => f.customer_id).sort(), [bad.id, badPostpaid.id].sort());
    const audit = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'billing.charge_retried'`);
    assert.equal(audit[0]!.n, 1);

    // the postpaid customer's invoice of the month it waited for is issued, for exactly that month's usage
    const [inv] = await invoiced(badPostpaid.id);
    assert.ok(inv, 'invoiced once charged again');
    const [accrued] = await queryRows<{ s: string }>(
      t.container.db,
      sql`select sum(amount)::text as s from usage_charges where customer_id = ${badPostpaid.id} and postpaid and hour < ${new Date(BOUNDARY).toISOString()}::timestamptz`,
    );
    assert.equal(new Decimal(inv.subtotal).toFixed(2), new Decimal(accrued!.s).toFixed(2));

    // exact to the cent: usage = charged + carry, and every wallet equals its ledger
    const [u] = await queryRows<{ usage: string; charged: string; carry: string }>(
      t.container.db,
      sql`select (select sum(amount) from usage_records where customer_id = ${bad.id})::text as usage,
            (select -sum(amount) from balance_logs where customer_id = ${bad.id} and type = 'BalanceLogCharge')::text as charged,
            (select carry from usage_charges where customer_id = ${bad.id} order by hour desc limit 1)::text as carry`,
    );
    assert.equal(new Decimal(u!.charged).plus(u!.carry).toFixed(6), new Decimal(u!.usage).toFixed(6));
    assert.ok(new Decimal((await wallet(t, bad.id))!.current_balance).lt(0));
    for (const row of await walletsVsLedger(t)) {
      assert.equal(row.actual_balance, row.ledger_actual);
      assert.equal(row.current_balance, row.ledger_current);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../src/platform/clock.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer, ledgerOf, wallet, walletsVsLedger } from '../helpers/money.js';
import { insertPrice, one, usageOf } from './helpers.js';

const HOUR = 3_600_000;
// A month (28 days) that ends at the current hour, so tokens signed on the test clock stay valid.
const END = Math.floor(Date.now() / HOUR) * HOUR;
const START = END - 672 * HOUR;
const at = (ms: number) => new Date(ms);

const clock = new ManualClock(at(START));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

async function credit(customerId: number, amount: string, part: 'actual' | 'bonus', ref: string) {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.credit(tx, {
      customerId,
      type: part === 'actual' ? BalanceLogType.AdjustAdd : BalanceLogType.Bonus,
      amount,
      part,
      referenceType: 'test',
      referenceId: ref,
      description: 'test credit',
    }),
  );
}

const hourly = (monthly: string) => new Decimal(monthly).div(730).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);

describe('the hourly charge over a month', () => {
  test('each meter-hour once at the price in force; ledger, wallet and usage agree to the cent', async () => {
    const priceChange = START + 300 * HOUR;
    await insertPrice(t, 'tier:901', '100000', at(START - 1000 * HOUR).toISOString());
    await insertPrice(t, 'tier:901', '150000', at(priceChange).toISOString());
    await insertPrice(t, 'storage_tier:901', '1000', at(START - 1000 * HOUR).toISOString());
    const c = await createCustomer(t);
    await credit(c.id, '1000000.00', 'actual', `a-${c.id}`);
    await credit(c.id, '5000.00', 'bonus', `b-${c.id}`);

    const m = t.container.services.metering;
    await m.open({ customerId: c.id, resourceType: 'vm', resourceId: 'vm-1', description: 'VM web-1', priceKey: 'tier:901', locationId: 1, at: at(START) });
    const diskFrom = START + 50 * HOUR + 20 * 60_000; // 20 minutes into an hour
    const diskTo = START + 400 * HOUR + 45 * 60_000 + 30_000;
    clock.set(at(diskFrom));
    await m.open({ customerId: c.id, resourceType: 'block_storage', resourceId: 'disk-1', description: 'Disk 25.5 GB', priceKey: 'storage_tier:901', locationId: 1, quantity: '25.5', at: at(diskFrom) });
    // opening it again is a no-op
    assert.equal((await m.open({ customerId: c.id, resourceType: 'block_storage', resourceId: 'disk-1', description: 'Disk', priceKey: 'storage_tier:901', locationId: 1, quantity: '25.5', at: at(diskFrom) })).created, false);

    // the job runs a few times during the month (with gaps: catch-up), and closes the disk in between
    clock.set(at(START + 100 * HOUR + 5 * 60_000));
    await t.container.services.charging.runHourly();
    clock.set(at(diskTo));
    assert.equal(await m.close('block_storage', 'disk-1', at(diskTo)), 1);
    clock.set(at(END + 5 * 60_000));
    const run = await t.container.services.charging.runHourly();
    assert.equal(run.hours.length, 672 - 100);
    // a second run in the same hour charges nothing
    assert.deepEqual((await t.container.services.charging.runHourly()).hours, []);

    // what the usage should be, computed here with decimals
    let exact = new Decimal(0);
    let vmHours = 0;
    let diskHours = 0;
    for (let h = START; h < END; h += HOUR) {
      exact = exact.plus(hourly(h >= priceChange ? '150000' : '100000'));
      vmHours++;
      const secs = Math.max(0, (Math.min(h + HOUR, diskTo) - Math.max(h, diskFrom)) / 1000);
      if (secs > 0) {
        diskHours++;
        exact = exact.plus(hourly('1000').times('25.5').times(secs).div(3600).toDecimalPlaces(6, Decimal.ROUND_HALF_UP));
      }
    }
    const usage = await usageOf(t, c.id);
    assert.equal(usage.length, vmHours + diskHours);
    const usageSum = usage.reduce((s, u) => s.plus(u.amount), new Decimal(0));
    assert.equal(usageSum.toFixed(6), exact.toFixed(6));
    // at the price version in force in that hour
    for (const u of usage.filter((x) => x.seconds === 3600 && Number(x.meter_id) === usage[0]!.meter_id)) {
      const h = new Date(u.hour).getTime();
      assert.equal(new Decimal(u.hourly_price).toFixed(6), hourly(h >= priceChange ? '150000' : '100000').toFixed(6));
    }

    const ledger = (await ledgerOf(t, c.id)).filter((l) => l.type === BalanceLogType.Charge);
    const charged = ledger.reduce((s, l) => s.minus(l.amount), new Decimal(0));
    // whole cents of the exact usage; the rest (under a cent) is carried
    assert.equal(charged.toFixed(2), exact.toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2));
    const carry = await one<{ carry: string }>(t, sql`select carry::text from usage_charges where customer_id = ${c.id} order by hour desc limit 1`);
    assert.equal(charged.plus(carry.carry).toFixed(6), exact.toFixed(6));
    // one entry per hour, each referencing its usage_charges row
    assert.equal(ledger.length, 672);
    assert.ok(ledger.every((l) => l.reference_type === 'usage_charge'));
    const linked = await one<{ n: number }>(
      t,
      sql`select count(*)::int as n from balance_logs l join usage_charges uc on uc.id::text = l.reference_id
          where l.customer_id = ${c.id} and l.type = 'BalanceLogCharge' and uc.customer_id = l.customer_id and -l.amount = uc.amount`,
    );
    assert.equal(linked.n, 672);
    // bonus credit went first
    const bonusUsed = ledger.reduce((s, l) => s.minus(l.bonus_amount), new Decimal(0));
    assert.equal(bonusUsed.toFixed(2), '5000.00');
    const w = await wallet(t, c.id);
    assert.equal(w!.current_balance, new Decimal('1005000.00').minus(charged).toFixed(2));
    assert.equal(w!.actual_balance, w!.current_balance);
    for (const row of await walletsVsLedger(t)) {
      assert.equal(row.actual_balance, row.ledger_actual);
      assert.equal(row.current_balance, row.ledger_current);
    }
  });

  test('running the hourly job by hand twice in one hour charges once', async () => {
    await insertPrice(t, 'tier:902', '73000', at(START - 10 * HOUR).toISOString());
    const c = await createCustomer(t);
    clock.set(at(END + 10 * 60_000));
    // a meter started two hours ago: both complete hours are due
    await t.container.db.execute(sql`
      insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, started_at)
      values (${c.id}, 'vm', 'vm-902', 'VM', 'tier:902', 1, ${at(END - 2 * HOUR).toISOString()}::timestamptz)`);
    // this row is back-dated into hours the first test already completed: those stay final
    // (MeteringService.open would have clamped started_at to END); the next hour is charged once
    clock.set(at(END + HOUR + 10 * 60_000));
    const boss = await adminSession(t);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/jobs/charging.hourly/run', headers: { cookie: boss.cookie } });
      assert.equal(res.statusCode, 200, res.body);
    }
    const usage = await usageOf(t, c.id);
    assert.equal(usage.length, 1);
    assert.equal(usage[0]!.amount, '100.000000');
    const ledger = (await ledgerOf(t, c.id)).filter((l) => l.type === BalanceLogType.Charge);
    assert.equal(ledger.length, 1);
    assert.equal(ledger[0]!.amount, '-100.00');
    // the wallet was created by the charge and went below zero
    assert.equal((await wallet(t, c.id))!.current_balance, '-100.00');
  });

  test('a repeated chunk statement inserts nothing (the unique keys, not only the cursor)', async () => {
    // the month of the first test again, hour by hour, every customer (the back-dated meter of the second test starts after it)
    const before = await one<{ u: number; l: number }>(t, sql`select (select count(*) from usage_records)::int as u, (select count(*) from balance_logs)::int as l`);
    const r = await t.container.db.transaction(async (tx) => {
      const { ChargingRepository } = await import('../../src/modules/charging/index.js');
      return new ChargingRepository().chargeChunk(tx, new Date(START), new Date(END - 2 * HOUR), 0, 2_000_000_000);
    });
    assert.deepEqual(r, { usageRows: 0, customers: 0, ledgerEntries: 0, charged: '0', perHour: [] });
    const afterRun = await one<{ u: number; l: number }>(t, sql`select (select count(*) from usage_records)::int as u, (select count(*) from balance_logs)::int as l`);
    assert.deepEqual(afterRun, before);
  });
});

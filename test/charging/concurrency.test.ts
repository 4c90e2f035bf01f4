import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { ChargingRepository, ChargingService } from '../../src/modules/charging/index.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { TEST_DB } from '../helpers/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createCustomer, walletsVsLedger } from '../helpers/money.js';
import { insertPrice, one } from './helpers.js';

const HOUR = 3_600_000;
const END = Math.floor(Date.now() / HOUR) * HOUR;
const START = END - 6 * HOUR;
const clock = new ManualClock(new Date(END + 5 * 60_000));
let t: TestApp;
let t2: TestApp | undefined;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
  // a second process on the same database (PostgreSQL); the embedded database has one process
  if (TEST_DB === 'postgres') t2 = await buildTestApp({ clock, worker: false, sameDatabaseAs: t });
});
after(async () => {
  await t2?.close();
  await t.close();
});

describe('concurrent workers', () => {
  test('two workers charging the same hours at once charge each meter-hour once; credits in between land', async () => {
    await insertPrice(t, 'tier:911', '7300', new Date(START - HOUR).toISOString());
    await insertPrice(t, 'tier:912', '1000', new Date(START - HOUR).toISOString());
    const customers = [];
    for (let i = 0; i < 30; i++) customers.push(await createCustomer(t, i % 5 === 0 ? { billingType: 'POSTPAID' } : {}));
    for (const [i, c] of customers.entries()) {
      for (let k = 0; k < 3; k++) {
        await t.container.services.metering.open({
          customerId: c.id,
          resourceType: 'vm',
          resourceId: `c${c.id}-${k}`,
          description: 'VM',
          priceKey: k === 0 ? 'tier:912' : 'tier:911',
          locationId: 1,
          quantity: k === 2 ? '1.5' : '1',
          at: new Date(START + (i % 4) * 17 * 60_000),
        });
      }
    }
    // small chunks, so workers meet chunk by chunk
    const worker = (app: TestApp) => new ChargingService(app.container.db, new ChargingRepository(), clock, app.container.log, { afterCharging: async () => undefined }, { chargesResolved: async () => undefined }, { chunkMeters: 7 });
    const workers = [worker(t), worker(t), ...(t2 ? [worker(t2), worker(t2)] : [])];
    const credits = customers.map((c, i) => async () => {
      await t.container.db.transaction((tx) =>
        t.container.services.wallet.credit(tx, { customerId: c.id, type: BalanceLogType.AdjustAdd, amount: '1.00', part: 'actual', referenceType: 'test', referenceId: `cc-${i}-${c.id}`, description: 'in between' }),
      );
    });
    await Promise.all([...workers.map((w) => w.chargeDueHours()), ...credits.map((f) => f())]);
    // and once more, all of them, after it is done: nothing
    await Promise.all(workers.map((w) => w.chargeDueHours()));

    const usage = await one<{ n: number; dup: number }>(
      t,
      sql`select count(*)::int as n, (count(*) - count(distinct (meter_id, hour)))::int as dup from usage_records u
          join meters m on m.id = u.meter_id where m.price_key in ('tier:911', 'tier:912')`,
    );
    assert.equal(usage.dup, 0);
    assert.equal(usage.n, 30 * 3 * 6);
    const charges = await one<{ n: number; customers: number }>(
      t,
      sql`select count(*)::int as n, count(distinct customer_id)::int as customers from usage_charges where customer_id = any(${`{${customers.map((c) => c.id).join(',')}}`}::int[])`,
    );
    assert.equal(charges.n, 30 * 6);
    const ledger = await one<{ n: number }>(
      t,
      sql`select count(*)::int as n from balance_logs where type = 'BalanceLogCharge' and customer_id = any(${`{${customers.map((c) => c.id).join(',')}}`}::int[])`,
    );
    assert.equal(ledger.n, 24 * 6);
    const hours = await one<{ n: number; open: number }>(t, sql`select count(*)::int as n, count(*) filter (where completed_at is null)::int as open from charge_hours`);
    assert.equal(hours.open, 0);
    for (const row of await walletsVsLedger(t)) {
      assert.equal(row.actual_balance, row.ledger_actual);
      assert.equal(row.current_balance, row.ledger_current);
      assert.equal(row.current_balance, row.last_current_after);
      assert.equal(row.actual_balance, row.last_actual_after);
    }
    // usage = charges + carry for each customer
    const drift = await one<{ bad: number }>(
      t,
      sql`select count(*)::int as bad from (
            select uc.customer_id, sum(uc.usage_amount) as usage, sum(uc.amount) as charged,
              (select carry from usage_charges x where x.customer_id = uc.customer_id order by hour desc limit 1) as carry
            from usage_charges uc group by uc.customer_id) s
          where s.usage <> s.charged + s.carry`,
    );
    assert.equal(drift.bad, 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createCustomer, ledgerOf } from '../helpers/money.js';
import { insertPrice } from './helpers.js';

const HOUR = 3_600_000;
const END = Math.floor(Date.now() / HOUR) * HOUR;
const BASE = END - 5 * HOUR;
const clock = new ManualClock(new Date(BASE));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

describe('switching between prepaid and postpaid', () => {
  test('no hour is lost or counted twice: hours before the switch from the wallet, after it accrued for the invoice', async () => {
    await insertPrice(t, 'tier:941', '73000', new Date(BASE - HOUR).toISOString());
    const c = await createCustomer(t);
    await t.container.services.metering.open({ customerId: c.id, resourceType: 'vm', resourceId: 'vm-941', description: 'VM', priceKey: 'tier:941', locationId: 1, at: new Date(BASE) });
    clock.set(new Date(BASE + 3 * HOUR + 60_000));
    await t.container.services.charging.runHourly();
    const boss = await adminSession(t);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/customer/${c.id}`, headers: { cookie: boss.cookie }, payload: { billing_type: 'POSTPAID' } });
    assert.equal(res.statusCode, 200, res.body);
    clock.set(new Date(END + 60_000));
    await t.container.services.charging.runHourly();
    const rows = await queryRows<{ postpaid: boolean; amount: string }>(t.container.db, sql`select postpaid, amount::text from usage_charges where customer_id = ${c.id} order by hour`);
    assert.deepEqual(rows.map((r) => r.postpaid), [false, false, false, true, true]);
    assert.ok(rows.every((r) => r.amount === '100.00'));
    const charges = (await ledgerOf(t, c.id)).filter((l) => l.type === BalanceLogType.Charge);
    assert.deepEqual(charges.map((l) => l.amount), ['-100.00', '-100.00', '-100.00']);
    const [u] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from usage_records where customer_id = ${c.id}`);
    assert.equal(u!.n, 5);
  });
});

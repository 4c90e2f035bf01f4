import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { createCustomer, deposit, invoiceRow, pgoneForm, postPgone } from '../helpers/money.js';
import { insertPrice } from './helpers.js';

const HOUR = 3_600_000;
const END = Math.floor(Date.now() / HOUR) * HOUR;
const BASE = END - 8 * HOUR;
const clock = new ManualClock(new Date(BASE));
const calls: string[] = [];
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock });
  Object.assign(t.container.flows.customerSuspension, {
    suspendCustomer: async (id: number, reason: string) => void calls.push(`suspend ${id} ${reason}`),
    resumeCustomer: async (id: number) => void calls.push(`resume ${id}`),
  });
});
after(() => t.close());

async function mails(to: string) {
  return queryRows<{ template: string; subject: string }>(t.container.db, sql`select template, subject from mail_outbox where to_address = ${to} order by id`);
}

/** The customer's in-app notifications, oldest first: every money mail has its notification. */
async function notices(customerId: number) {
  return (await queryRows<{ kind: string }>(t.container.db, sql`select kind from notifications where customer_id = ${customerId} order by id`)).map((n) => n.kind);
}

async function credit(customerId: number, amount: string) {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.credit(tx, { customerId, type: BalanceLogType.AdjustAdd, amount, part: 'actual', referenceType: 'test', referenceId: `s-${customerId}-${amount}`, description: 'test' }),
  );
}

async function runAt(ms: number) {
  clock.set(new Date(ms + 5 * 60_000));
  await t.container.services.charging.runHourly();
  await queueDrained(t);
}

describe('suspension and resumption', () => {
  test('warnings, suspension below zero, do_not_suspend_until, and a paid top-up resumes', async () => {
    const boss = await adminSession(t);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/backoffice/setting/charging',
      headers: { cookie: boss.cookie },
      payload: { runway_warning_hours: 5, low_balance_warning_hours: 2, postpaid_due_days: 14, postpaid_suspend_grace_days: 7 },
    });
    assert.equal(put.statusCode, 200, put.body);
    await insertPrice(t, 'tier:921', '73000', new Date(BASE - HOUR).toISOString()); // 100.000000 an hour
    const c = await customerSession(t);
    const protectedCustomer = await createCustomer(t, { doNotSuspendUntil: new Date(END + 100 * HOUR) });
    await credit(c.id, '450.00');
    await credit(protectedCustomer.id, '50.00');
    for (const [who, id] of [
      [c.id, 'vm-a'],
      [protectedCustomer.id, 'vm-p'],
    ] as const) {
      await t.container.services.metering.open({ customerId: who, resourceType: 'vm', resourceId: id, description: 'VM', priceKey: 'tier:921', locationId: 1, at: new Date(BASE) });
    }

    const usage = await t.app.inject({ method: 'GET', url: '/api/billing/usage', headers: { cookie: c.cookie } });
    assert.equal(usage.statusCode, 200, usage.body);
    assert.equal(usage.json().data.hourly_burn, 100);
    assert.equal(usage.json().data.runway_hours, 4);

    await runAt(BASE + HOUR); // 350 left: runway 3.5 h < 5 → the runway warning
    assert.deepEqual((await mails(c.email)).map((m) => m.template), ['billing_runway']);
    assert.deepEqual(await notices(c.id), ['RUNWAY_WARNING']);
    // money in the notice as a person reads it, not "IDR 350.00" or the hourly rate's six decimals
    const [warning] = await queryRows<{ body: string }>(t.container.db, sql`select body from notifications where customer_id = ${c.id}`);
    assert.match(warning!.body, /^Your balance is IDR 350; your running resources cost IDR 100 an hour, so it lasts about 3 more hours\./);
    await runAt(BASE + 2 * HOUR); // 250: nothing new
    await runAt(BASE + 3 * HOUR); // 150: 1.5 h < 2 → the low-balance notice
    assert.deepEqual((await mails(c.email)).map((m) => m.template), ['billing_runway', 'billing_low_balance']);
    assert.deepEqual(await notices(c.id), ['RUNWAY_WARNING', 'LOW_BALANCE']);
    await runAt(BASE + 4 * HOUR); // 50
    assert.deepEqual(calls, []);
    await runAt(BASE + 5 * HOUR); // -50: suspended
    assert.deepEqual(calls, [`suspend ${c.id} INSUFFICIENT_BALANCE`]);
    assert.deepEqual((await mails(c.email)).map((m) => m.template), ['billing_runway', 'billing_low_balance', 'billing_suspended']);
    assert.deepEqual(await notices(c.id), ['RUNWAY_WARNING', 'LOW_BALANCE', 'SUSPENDED']);
    // (the clock moved five hours: a fresh session)
    const cookie = await loginCustomer(t, c.email, c.password);
    const inf = (await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } })).json().data;
    assert.equal(inf.suspend_reason, 'INSUFFICIENT_BALANCE');
    assert.ok(inf.suspended_at);
    // the protected customer is below zero too, but not suspended
    const [p] = await queryRows<{ suspended_at: Date | null; b: string }>(
      t.container.db,
      sql`select c.suspended_at, w.current_balance::text as b from customers c join wallets w on w.customer_id = c.id where c.id = ${protectedCustomer.id}`,
    );
    assert.equal(p!.suspended_at, null);
    assert.ok(Number(p!.b) < 0);
    // a second sweep changes nothing
    await t.container.services.suspension.sweep();
    await queueDrained(t);
    assert.equal(calls.length, 1);

    // a paid top-up brings the balance back to zero or more: resumed automatically
    const d = await deposit(t, c.id, { amount: 10000 });
    const res = await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)));
    assert.equal(res.statusCode, 200, res.body);
    await eventually(async () => (calls as string[]).includes(`resume ${c.id}`) || undefined);
    const inf2 = (await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } })).json().data;
    assert.equal(inf2.suspended_at, null);
    assert.equal(inf2.suspend_reason, null);
    // the receipt mail and the resumption each have their notification, written with the credit
    assert.deepEqual((await mails(c.email)).map((m) => m.template), ['billing_runway', 'billing_low_balance', 'billing_suspended', 'receipt']);
    assert.deepEqual(await notices(c.id), ['RUNWAY_WARNING', 'LOW_BALANCE', 'SUSPENDED', 'INVOICE_CREATED', 'RESUMED', 'TOPUP_CREDITED']);
    const list = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie } })).json().data;
    const credited = list.find((n: { kind: string }) => n.kind === 'TOPUP_CREDITED');
    assert.equal(credited.reference_type, 'topup_invoice');
    assert.equal(credited.reference_id, d.invoice_id);
    assert.match(credited.body, /^IDR 10,000 from your top-up/);
  });
});

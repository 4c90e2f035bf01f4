import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, eventually, type TestApp } from '../helpers/app.js';
import { topupView } from '../../src/modules/billing/billing.present.js';
import { createCustomer, deposit, invoiceRow, ledgerOf, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
const clock = new ManualClock('2030-03-01T08:00:00.000Z');
before(async () => {
  t = await buildTestApp({ clock, env: { TOPUP_EXPIRY_HOURS: '24' } });
});
after(() => t.close());

const HOUR = 3600_000;

describe('top-up expiry', () => {
  test('the job is scheduled every 10 minutes', () => {
    assert.equal(t.container.queue.definition('billing.expire-topups')?.schedule, '*/10 * * * *');
  });

  test('Pending invoices expire after TOPUP_EXPIRY_HOURS; a late success is still credited', async () => {
    const c = await createCustomer(t);
    const old = await deposit(t, c.id, { amount: 10000 });
    clock.advance(2 * HOUR);
    const young = await deposit(t, c.id, { amount: 20000 });
    const paid = await deposit(t, c.id, { amount: 30000 });
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, paid.invoice_id)))).statusCode, 200);

    clock.advance(22 * HOUR - 1000); // old: 24h - 1s
    await t.container.queue.runNow('billing.expire-topups');
    assert.equal((await invoiceRow(t, old.invoice_id)).status, 'Pending');
    clock.advance(1000);
    await t.container.queue.runNow('billing.expire-topups');
    assert.equal((await invoiceRow(t, old.invoice_id)).status, 'Expired');
    assert.equal((await invoiceRow(t, young.invoice_id)).status, 'Pending');
    assert.equal((await invoiceRow(t, paid.invoice_id)).status, 'Paid');
    clock.advance(2 * HOUR);
    await t.container.queue.runNow('billing.expire-topups');
    assert.equal((await invoiceRow(t, young.invoice_id)).status, 'Expired');

    // the gateway took the money after all: credit it (documented decision)
    const late = await invoiceRow(t, old.invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, late))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '40000.00');
    assert.equal((await invoiceRow(t, old.invoice_id)).status, 'Paid');
    // a failure report for an expired invoice changes nothing
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, young.invoice_id), '01'))).statusCode, 200);
    assert.equal((await invoiceRow(t, young.invoice_id)).status, 'Expired');
  });
});

describe('coupons', () => {
  const coupons = () => t.container.services.coupons;

  test('a percent coupon (capped) is credited once, as its own bonus entry', async () => {
    const coupon = await coupons().create({ code: 'Welcome10', type: 'PERCENT', value: 10, max_bonus: 5000, min_deposit: 20000 });
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 100000, coupon_code: 'welcome10' });
    assert.equal(d.bonus_amount, '5000');
    assert.equal(d.coupon_code, 'Welcome10');
    const inv = await invoiceRow(t, d.invoice_id);
    await Promise.all(Array.from({ length: 30 }, () => postPgone(t, pgoneForm(t, inv))));
    await eventually(async () => (await wallet(t, c.id))?.current_balance === '105000.00');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '100000.00', current_balance: '105000.00' });
    assert.deepEqual(
      (await ledgerOf(t, c.id)).map((e) => [e.type, e.amount, e.actual_amount, e.bonus_amount]),
      [
        ['BalanceLogAdd', '100000.00', '100000.00', '0.00'],
        ['BalanceLogBonus', '5000.00', '0.00', '5000.00'],
      ],
    );
    assert.equal((await coupons().get(coupon.id)).usedCount, 1);
    // a small deposit gets the uncapped percentage
    const small = await deposit(t, c.id, { amount: 25000.55, coupon_code: 'WELCOME10' });
    assert.equal(small.bonus_amount, '2500.05');
  });

  test('usage_limit holds when more deposits than uses race for it: the use is reserved at deposit time', async () => {
    await coupons().create({ code: 'FIRST3', type: 'FIXED', value: 2500, usage_limit: 3 });
    const customers = await Promise.all(Array.from({ length: 12 }, () => createCustomer(t)));
    const results = await Promise.allSettled(customers.map((c) => deposit(t, c.id, { amount: 10000, gateway_name: 'pgtwo', coupon_code: 'first3' })));
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    assert.equal(made.length, 3, 'exactly the usage limit of deposits quote the bonus');
    assert.ok(refused.every((e: any) => e.code === 'COUPON_USED_UP' && e.status === 400), String(refused.map((e: any) => e.code)));
    assert.ok(made.every((d) => d.bonus_amount === '2500' && d.bonus_status === 'reserved'));
    const invoices = await Promise.all(made.map((d) => invoiceRow(t, d.invoice_id)));
    await Promise.all(invoices.flatMap((inv) => [postPgtwo(t, pgtwoCallback(t, inv)), postPgtwo(t, pgtwoCallback(t, inv))]));
    const paidCustomers = invoices.map((inv) => inv.customer_id);
    await eventually(async () => (await Promise.all(paidCustomers.map((id) => wallet(t, id)))).every((w) => w?.current_balance === '12500.00'));
    await queueDrained(t, { queues: ['billing-high'] });
    for (const d of made) {
      const inv = topupView(await t.container.services.topups.get(invoices.find((i) => i.id === d.invoice_id)!.customer_id, d.invoice_id));
      assert.deepEqual([inv.bonus_status, inv.credited_amount, inv.credited_bonus], ['credited', '10000', '2500'], 'the invoice says what was credited');
    }
    const [row] = await queryRows<{ used: number; redemptions: number }>(
      t.container.db,
      sql`select used_count as used, (select count(*)::int from coupon_redemptions r where r.coupon_id = c.id) as redemptions from coupons c where code = 'FIRST3'`,
    );
    assert.deepEqual(row, { used: 3, redemptions: 3 });
    await assert.rejects(deposit(t, customers[0]!.id, { amount: 10000, coupon_code: 'FIRST3' }), (err: any) => err.code === 'COUPON_USED_UP');
  });

  test('invalid coupons are refused at deposit time with a clear code', async () => {
    const c = await createCustomer(t);
    const now = clock.now().getTime();
    await coupons().create({ code: 'OFF', type: 'FIXED', value: 1000, is_active: false });
    await coupons().create({ code: 'SOON', type: 'FIXED', value: 1000, valid_from: new Date(now + HOUR).toISOString() });
    await coupons().create({ code: 'GONE', type: 'FIXED', value: 1000, valid_until: new Date(now - HOUR).toISOString() });
    await coupons().create({ code: 'BIG', type: 'FIXED', value: 1000, min_deposit: 500000 });
    for (const [code, error] of [
      ['OFF', 'COUPON_INACTIVE'],
      ['SOON', 'COUPON_NOT_YET_VALID'],
      ['GONE', 'COUPON_EXPIRED'],
      ['BIG', 'COUPON_MIN_DEPOSIT'],
      ['NOPE', 'COUPON_NOT_FOUND'],
    ]) {
      await assert.rejects(deposit(t, c.id, { amount: 10000, coupon_code: code }), (err: any) => err.code === error && err.status === 400, code);
    }
    clock.advance(2 * HOUR);
    assert.equal((await deposit(t, c.id, { amount: 10000, coupon_code: 'soon' })).bonus_amount, '1000');
  });

  test('coupon rules: unique code (case-insensitive), percent ≤ 100, window order', async () => {
    await coupons().create({ code: 'UNIQUE1', type: 'FIXED', value: 5 });
    await assert.rejects(coupons().create({ code: 'unique1', type: 'FIXED', value: 5 }), (err: any) => err.status === 409);
    await assert.rejects(coupons().create({ code: 'PCT', type: 'PERCENT', value: 150 }), (err: any) => err.status === 400);
    await assert.rejects(
      coupons().create({ code: 'WIN', type: 'FIXED', value: 5, valid_from: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' }),
      (err: any) => err.status === 400,
    );
  });

  test('the ledger still equals every wallet', async () => {
    for (const r of await walletsVsLedger(t)) {
      assert.equal(r.actual_balance, r.ledger_actual);
      assert.equal(r.current_balance, r.ledger_current);
    }
  });
});

describe('billing.recredit-paid', () => {
  test('a Paid invoice whose credit task was lost is credited by the sweep, once', async () => {
    assert.equal(t.container.queue.definition('billing.recredit-paid')?.schedule, '*/15 * * * *');
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 15000 });
    // Paid without its task, as after a task that exhausted its retries
    await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = ${clock.now().toISOString()}::timestamptz where id = ${d.invoice_id}`);
    clock.advance(9 * 60_000);
    await t.container.queue.runNow('billing.recredit-paid');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal(await wallet(t, c.id), undefined, 'not before 10 minutes: the task may still be queued');
    clock.advance(2 * 60_000);
    await t.container.queue.runNow('billing.recredit-paid');
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '15000.00');
    await eventually(async () => (await invoiceRow(t, d.invoice_id)).status === 'Paid' && (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from topup_invoices where id = ${d.invoice_id} and credited_at is not null`))[0]!.n === 1);
    await t.container.queue.runNow('billing.recredit-paid');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal((await ledgerOf(t, c.id)).length, 1);
    for (const r of await walletsVsLedger(t)) assert.equal(r.actual_balance, r.ledger_actual);
  });
});

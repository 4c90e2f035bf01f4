import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { CREDIT_MAX_ATTEMPTS } from '../../src/modules/billing/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { fund } from '../helpers/compute.js';
import { loginCustomer } from '../helpers/customers.js';
import { topupView } from '../../src/modules/billing/billing.present.js';
import { createCustomer, deposit, invoiceRow, ledgerOf, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, walletsVsLedger } from '../helpers/money.js';

// Money hardening (docs/api.md): a payment taken is always credited or
// flagged for staff; a promised bonus is held for the deposit that quoted it.
let t: TestApp;
let staff: { id: number; cookie: string };
let watcher: { cookie: string };
const clock = new ManualClock('2030-05-01T08:00:00.000Z');
const HOUR = 3600_000;
before(async () => {
  t = await buildTestApp({ clock, env: { TOPUP_EXPIRY_HOURS: '24' } });
  staff = await adminSession(t, { permissions: ['manage_balance', 'view_billing', 'view_transactions', 'manage_coupons'] });
  watcher = await adminSession(t, { permissions: ['view_billing'] });
});
after(() => t.close());

/** The tests move the clock past the 15-minute access tokens: staff log in again. */
async function freshStaff() {
  staff = await adminSession(t, { permissions: ['manage_balance', 'view_billing', 'view_transactions', 'manage_coupons'] });
  watcher = await adminSession(t, { permissions: ['view_billing'] });
}

const bo = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie }, ...(payload !== undefined ? { payload } : {}) });
const adjust = (customerId: number, type: 'ADD' | 'DEDUCT', amount: number) =>
  bo(staff.cookie, 'POST', `/customer/${customerId}/balance`, { type, amount, description: 'test' });
const couponUses = async (code: string) =>
  (await queryRows<{ n: number }>(t.container.db, sql`select used_count as n from coupons where lower(code) = lower(${code}) and deleted_at is null`))[0]!.n;

describe('coupon amounts are bounded (item 1)', () => {
  test('a FIXED value, max_bonus or min_deposit above the largest top-up (1,000,000,000) is a 400', async () => {
    for (const body of [
      { code: 'HUGE1', type: 'FIXED', value: 9000000000000000 },
      { code: 'HUGE2', type: 'FIXED', value: 1000000000.01 },
      { code: 'HUGE3', type: 'PERCENT', value: 10, max_bonus: 1000000001 },
      { code: 'HUGE4', type: 'FIXED', value: 5, min_deposit: 1000000001 },
    ]) {
      const res = await bo(staff.cookie, 'POST', '/coupons', body);
      assert.equal(res.statusCode, 400, `${body.code}: ${res.body}`);
    }
    assert.equal((await bo(staff.cookie, 'POST', '/coupons', { code: 'BIGGEST', type: 'FIXED', value: 1000000000 })).statusCode, 201);
    const created = await bo(staff.cookie, 'POST', '/coupons', { code: 'SMALLFIX', type: 'FIXED', value: 5 });
    assert.equal((await bo(staff.cookie, 'PATCH', `/coupons/${created.json().data.id}`, { value: 9000000000000000 })).statusCode, 400);
    // the database holds the bound too
    await assert.rejects(t.container.db.execute(sql`update coupons set value = 9000000000000000 where code = 'SMALLFIX'`));
  });
});

describe('a deposit that could not be credited is refused at creation (item 1)', () => {
  test('the wallet plus the deposit and its bonus must stay below 10^16', async () => {
    const c = await createCustomer(t);
    await fund(t, c.id, '9999999990000000.00'); // (a staff ADD takes at most 1,000,000,000 at once)
    await t.container.services.coupons.create({ code: 'EDGE5K', type: 'FIXED', value: 5000 });
    // 9999999990000000 + 9999999.99 fits; + 10000000 does not
    await assert.rejects(deposit(t, c.id, { amount: 10000000 }), (err: any) => err.code === 'BALANCE_LIMIT' && err.status === 400);
    // with the bonus it would not fit either
    await assert.rejects(deposit(t, c.id, { amount: 9999000, coupon_code: 'EDGE5K' }), (err: any) => err.code === 'BALANCE_LIMIT');
    assert.equal(await couponUses('EDGE5K'), 0, 'a refused deposit holds no coupon use');
    const ok = await deposit(t, c.id, { amount: 9994999.99, coupon_code: 'EDGE5K' });
    // the open deposit counts: a second one no longer fits
    await assert.rejects(deposit(t, c.id, { amount: 10000 }), (err: any) => err.code === 'BALANCE_LIMIT');
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, ok.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.current_balance === '9999999999999999.99');
    assert.equal((await wallet(t, c.id))?.actual_balance, '9999999999994999.99');
  });

  test('parallel deposits of one customer cannot each count on the same headroom (PostgreSQL: real parallel transactions)', async () => {
    const c = await createCustomer(t);
    await fund(t, c.id, '9999999900000000.00'); // (a staff ADD takes at most 1,000,000,000 at once)
    // headroom 99,999,999.99: at most 9 deposits of 10,000,000
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => deposit(t, c.id, { amount: 10000000 })));
    const made = results.filter((r) => r.status === 'fulfilled').length;
    assert.equal(made, 9);
    assert.ok(results.every((r) => r.status === 'fulfilled' || (r.reason as any).code === 'BALANCE_LIMIT'));
  });
});

describe('a paid invoice ends credited or flagged for staff (item 1, credit failures)', () => {
  test('a credit refused by a business rule is flagged at once, not retried, listed for staff, and staff can retry it', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 50000 });
    // after the deposit, staff fill the wallet (an adjustment does not count open deposits)
    await fund(t, c.id, '9999999999990000.00'); // (a staff ADD takes at most 1,000,000,000 at once)
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
    await queueDrained(t, { queues: ['billing-high'] });
    const list = async (query = '') => (await bo(staff.cookie, 'GET', `/billing/credit-failures${query}`)).json();
    const open = (await list()).data.filter((f: any) => f.invoice_id === d.invoice_id);
    assert.equal(open.length, 1);
    assert.deepEqual([open[0].permanent, open[0].attempts, open[0].error_code, open[0].invoice_status, open[0].credited_at, open[0].amount], [true, 1, 'BALANCE_LIMIT', 'Paid', null, 50000]);
    assert.equal((await bo(watcher.cookie, 'GET', '/billing/credit-failures')).statusCode, 403);

    // the sweep leaves a permanent failure to staff (no endless retries)
    clock.advance(HOUR);
    await freshStaff();
    await t.container.queue.runNow('billing.recredit-paid');
    const requeued = await queryRows<{ n: number }>(
      t.container.db,
      sql`select count(*)::int as n from pgboss.job where name = 'billing-recredit' and data->'payload'->>'invoiceId' = ${d.invoice_id}`,
    );
    assert.equal(requeued[0]!.n, 0);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.match(metrics.body, /^topup_credit_failures_open [1-9]/m);

    // staff make room and retry: credited once, the failure resolved
    assert.equal((await adjust(c.id, 'DEDUCT', 1000000)).statusCode, 200);
    // several staff retry at once, while the sweep runs too: credited exactly once
    const retried = await Promise.all([
      ...Array.from({ length: 8 }, () => bo(staff.cookie, 'POST', `/billing/credit-failures/${d.invoice_id}/retry`)),
      t.container.queue.runNow('billing.recredit-paid').then(() => undefined),
    ]);
    const statuses = retried.flatMap((r) => (r ? [r.statusCode] : []));
    assert.ok(statuses.includes(200) && statuses.every((s) => s === 200 || s === 404), String(statuses));
    await eventually(async () => topupView(await t.container.services.topups.get(c.id, d.invoice_id)).credited_at !== null);
    assert.equal((await list()).data.filter((f: any) => f.invoice_id === d.invoice_id).length, 0);
    assert.equal((await list('?resolved=true')).data.filter((f: any) => f.invoice_id === d.invoice_id).length, 1);
    assert.equal((await bo(staff.cookie, 'POST', `/billing/credit-failures/${d.invoice_id}/retry`)).statusCode, 404);
    assert.equal((await ledgerOf(t, c.id)).filter((e) => e.type === 'BalanceLogAdd').length, 1);
    const audit = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'billing.credit_retried' and target_id = ${d.invoice_id}`);
    assert.equal(audit[0]!.n, statuses.filter((s) => s === 200).length, 'each accepted retry is audited');
  });

  test('a failure that keeps coming back is retried, then flagged after CREDIT_MAX_ATTEMPTS runs instead of retrying forever', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 30000 });
    // an unexpected error (not a business rule) on this customer's ledger
    await t.container.db.execute(sql.raw(`create or replace function test_fail_ledger() returns trigger language plpgsql as $$
      begin if new.customer_id = ${c.id} then raise exception 'disk on fire'; end if; return new; end $$`));
    await t.container.db.execute(sql`create trigger test_fail_ledger before insert on balance_logs for each row execute function test_fail_ledger()`);
    try {
      await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = now() where id = ${d.invoice_id}`);
      const failure = async () =>
        (await queryRows<{ attempts: number; permanent: boolean; error_code: string }>(t.container.db, sql`select attempts, permanent, error_code from topup_credit_failures where invoice_id = ${d.invoice_id}`))[0];
      for (let i = 1; i < CREDIT_MAX_ATTEMPTS; i++) {
        await assert.rejects(t.container.queue.runNow('TopupCallbackSuccessTask', { invoiceId: d.invoice_id }), (err: any) => /disk on fire/.test(String(err?.cause?.message)));
      }
      assert.deepEqual(await failure(), { attempts: CREDIT_MAX_ATTEMPTS - 1, permanent: false, error_code: 'P0001' });
      // the last allowed run fails: flagged for staff, the job ends (no more retries)
      await t.container.queue.runNow('TopupCallbackSuccessTask', { invoiceId: d.invoice_id });
      assert.deepEqual(await failure(), { attempts: CREDIT_MAX_ATTEMPTS, permanent: true, error_code: 'P0001' });
      await t.container.queue.runNow('billing.recredit-paid');
      const requeued = await queryRows<{ n: number }>(
        t.container.db,
        sql`select count(*)::int as n from pgboss.job where name = 'billing-recredit' and data->'payload'->>'invoiceId' = ${d.invoice_id}`,
      );
      assert.equal(requeued[0]!.n, 0, 'the sweep leaves it to staff');
      const listed = (await bo(staff.cookie, 'GET', '/billing/credit-failures?limit=100')).json().data.find((f: any) => f.invoice_id === d.invoice_id);
      assert.deepEqual([listed?.permanent, listed?.last_error], [true, 'disk on fire']);
    } finally {
      await t.container.db.execute(sql`drop trigger test_fail_ledger on balance_logs`);
      await t.container.db.execute(sql`drop function test_fail_ledger()`);
    }
    assert.equal(await wallet(t, c.id), undefined);
  });

  test('the credit task marks an invoice credited when its ledger entry already exists (no second entry)', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 20000 });
    await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = now() where id = ${d.invoice_id}`);
    await t.container.db.transaction(async (tx) => {
      await t.container.services.wallet.credit(tx, { customerId: c.id, type: 'BalanceLogAdd', amount: '20000', part: 'actual', referenceType: 'topup_invoice', referenceId: d.invoice_id, description: 'earlier run' });
    });
    assert.equal(await t.container.services.topupCrediting.creditPaidInvoice(d.invoice_id), false);
    const inv = topupView(await t.container.services.topups.get(c.id, d.invoice_id));
    assert.notEqual(inv.credited_at, null);
    assert.equal(inv.credited_amount, '20000');
    assert.equal((await ledgerOf(t, c.id)).length, 1);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '20000.00', current_balance: '20000.00' });
  });
});

describe('a promised bonus is held for its deposit (item 2)', () => {
  test('usage_limit 1 on two deposits: the second is refused; the use comes back when the first expires', async () => {
    await t.container.services.coupons.create({ code: 'ONCE', type: 'FIXED', value: 5000, usage_limit: 1 });
    const a = await createCustomer(t);
    const b = await createCustomer(t);
    const first = await deposit(t, a.id, { amount: 10000, coupon_code: 'ONCE' });
    assert.deepEqual([first.bonus_amount, first.bonus_status], ['5000', 'reserved']);
    await assert.rejects(deposit(t, b.id, { amount: 10000, coupon_code: 'ONCE' }), (err: any) => err.code === 'COUPON_USED_UP');
    assert.equal(await couponUses('ONCE'), 1);

    clock.advance(25 * HOUR);
    await t.container.queue.runNow('billing.expire-topups');
    assert.equal(topupView(await t.container.services.topups.get(a.id, first.invoice_id)).bonus_status, 'released');
    assert.equal(await couponUses('ONCE'), 0);

    // b takes the use; a pays late: credited without the bonus, and the invoice says so
    const second = await deposit(t, b.id, { amount: 10000, coupon_code: 'ONCE' });
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, first.invoice_id)))).statusCode, 200);
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, second.invoice_id)))).statusCode, 200);
    await queueDrained(t, { queues: ['billing-high'] });
    const late = topupView(await t.container.services.topups.get(a.id, first.invoice_id));
    assert.deepEqual([late.bonus_status, late.credited_amount, late.credited_bonus], ['forfeited', '10000', '0']);
    assert.deepEqual(await wallet(t, a.id), { actual_balance: '10000.00', current_balance: '10000.00' });
    const paid = topupView(await t.container.services.topups.get(b.id, second.invoice_id));
    assert.deepEqual([paid.bonus_status, paid.credited_bonus], ['credited', '5000']);
    assert.deepEqual(await wallet(t, b.id), { actual_balance: '10000.00', current_balance: '15000.00' });
    assert.equal(await couponUses('ONCE'), 1);
    // the customer's API shows it too
    const cookie = await loginCustomer(t, a.email, a.password);
    const mine = (await t.app.inject({ method: 'GET', url: `/api/billing/deposit/${first.invoice_id}`, headers: { cookie } })).json().data;
    assert.deepEqual([mine.bonus_amount, mine.bonus_status, mine.credited_amount, mine.credited_bonus], [5000, 'forfeited', 10000, 0]);
  });

  test('a failed payment releases the use; a late success after the release takes it again if one is left', async () => {
    await t.container.services.coupons.create({ code: 'TWICE', type: 'PERCENT', value: 10, usage_limit: 2 });
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 20000, gateway_name: 'pgtwo', coupon_code: 'TWICE' });
    assert.equal(await couponUses('TWICE'), 1);
    const inv = await invoiceRow(t, d.invoice_id);
    assert.equal((await postPgtwo(t, pgtwoCallback(t, inv, 'FAILED'))).statusCode, 200);
    assert.equal(await couponUses('TWICE'), 0);
    assert.equal((await postPgtwo(t, pgtwoCallback(t, inv, 'FAILED'))).statusCode, 200);
    assert.equal(await couponUses('TWICE'), 0, 'a repeated failure releases nothing more');
    assert.equal((await postPgtwo(t, pgtwoCallback(t, inv, 'PAID'))).statusCode, 200);
    await queueDrained(t, { queues: ['billing-high'] });
    const paid = topupView(await t.container.services.topups.get(c.id, d.invoice_id));
    assert.deepEqual([paid.status, paid.bonus_status, paid.credited_bonus], ['Paid', 'credited', '2000']);
    assert.equal(await couponUses('TWICE'), 1);
  });

  test('a usage limit lowered while a deposit takes the last use: 409, never 500 (PostgreSQL: two connections)', async (ctx) => {
    if (t.database === undefined) return ctx.skip('PGlite has one connection');
    const pg = (await import('pg')).default;
    await freshStaff();
    const coupon = await t.container.services.coupons.create({ code: 'RACE1', type: 'FIXED', value: 100, usage_limit: 5 });
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      // a deposit's transaction takes a use and has not committed yet
      await other.query('begin');
      await other.query('update coupons set used_count = used_count + 1 where id = $1', [coupon.id]);
      // staff lower the limit twice to the uses they see (0): both checks pass, both updates wait for the row
      const patch = bo(staff.cookie, 'PATCH', `/coupons/${coupon.id}`, { usage_limit: 1 });
      const patch2 = bo(staff.cookie, 'PATCH', `/coupons/${coupon.id}`, { usage_limit: 1 });
      await eventually(async () => {
        const [row] = await queryRows<{ n: number }>(
          t.container.db,
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update "coupons"%'`,
        );
        return row!.n >= 2;
      });
      await other.query('update coupons set used_count = used_count + 1 where id = $1', [coupon.id]);
      await other.query('commit');
      const answers = await Promise.all([patch, patch2]);
      for (const res of answers) {
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().code, 'COUPON_USAGE_BELOW_USES');
      }
    } finally {
      await other.end();
    }
  });

  test('every wallet still equals its ledger', async () => {
    for (const r of await walletsVsLedger(t)) {
      assert.equal(r.actual_balance, r.ledger_actual);
      assert.equal(r.current_balance, r.ledger_current);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { fund } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { createCustomer, deposit, invoiceRow, ledgerOf, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
let finance: { id: number; cookie: string };
let viewer: { cookie: string };
before(async () => {
  t = await buildTestApp();
  finance = await adminSession(t, { permissions: ['manage_balance', 'view_billing', 'manage_coupons', 'edit_users'] });
  viewer = await adminSession(t, { permissions: ['view_billing'] });
});
after(() => t.close());

const bo = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie, ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('POST /api/backoffice/customer/{id}/balance', () => {
  test('ADD and DEDUCT move real money, are audited, and DEDUCT cannot go below zero', async () => {
    const c = await createCustomer(t);
    let res = await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: 150000.25, description: 'Goodwill credit' });
    assert.equal(res.statusCode, 200, res.body);
    const added = res.json().data;
    assert.deepEqual([added.actual_balance, added.current_balance, added.entry.type, added.entry.amount], [150000.25, 150000.25, 'BalanceLogAdjustAdd', 150000.25]);
    assert.equal(added.entry.created_by_admin_id, finance.id);

    res = await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'DEDUCT', amount: 150000.26, description: 'too much' });
    assert.equal(res.statusCode, 402);
    assert.equal(res.json().code, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '150000.25', current_balance: '150000.25' });

    res = await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'DEDUCT', amount: 50000, description: 'Refund reversal' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.entry.amount, -50000);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '100000.25', current_balance: '100000.25' });

    const audit = await queryRows<{ action: string; actor_id: number; target_id: string; before: any; after: any }>(
      t.container.db,
      sql`select action, actor_id, target_id, before, after from audit_logs where target_type = 'customer' and target_id = ${String(c.id)} order by id`,
    );
    assert.deepEqual(audit.map((a) => a.action), ['wallet.balance_added', 'wallet.balance_deducted']);
    assert.equal(audit[1]!.actor_id, finance.id);
    // the audit keeps exact decimal texts
    assert.deepEqual(audit[1]!.before, { actual_balance: '150000.25', current_balance: '150000.25' });
    assert.equal(audit[1]!.after.actual_balance, '100000.25');
  });

  test('validation, unknown customer, permission', async () => {
    const c = await createCustomer(t);
    for (const body of [
      { type: 'ADD', amount: 0, description: 'x' },
      { type: 'ADD', amount: 1.234, description: 'x' },
      { type: 'MOVE', amount: 1, description: 'x' },
      { type: 'ADD', amount: 1 },
      { type: 'ADD', amount: 1, description: '   ' },
      { type: 'ADD', amount: 1, description: 'x', extra: true },
    ]) {
      assert.equal((await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, body)).statusCode, 400, JSON.stringify(body));
    }
    assert.equal((await bo(finance.cookie, 'POST', '/customer/999999/balance', { type: 'ADD', amount: 1, description: 'x' })).statusCode, 404);
    assert.equal((await bo(viewer.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: 1, description: 'x' })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/backoffice/customer/${c.id}/balance`, payload: { type: 'ADD', amount: 1, description: 'x' } })).statusCode, 401);
    assert.equal(await wallet(t, c.id), undefined);
  });

  test('a balance beyond what NUMERIC(18,2) holds is a 400 BALANCE_LIMIT, and nothing changes', async () => {
    const c = await createCustomer(t);
    // one request adds at most 1,000,000,000 (the bound of every money input): the wallet is filled directly
    await fund(t, c.id, '9999999500000000.00');
    const add = () => bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: 300000000, description: 'huge' });
    assert.equal((await add()).statusCode, 200);
    const over = await add();
    assert.equal(over.statusCode, 400, over.body);
    assert.equal(over.json().code, 'BALANCE_LIMIT');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '9999999800000000.00', current_balance: '9999999800000000.00' });
    assert.equal((await ledgerOf(t, c.id)).length, 2);
  });

  test('Idempotency-Key: parallel repeats adjust once and answer the same; another body is a 409', async () => {
    const c = await createCustomer(t);
    const body = { type: 'ADD', amount: 1000, description: 'promo' };
    const responses = await Promise.all(Array.from({ length: 10 }, () => bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, body, { 'idempotency-key': 'adj-1' })));
    for (const r of responses) assert.equal(r.statusCode, 200, r.body);
    for (const r of responses) assert.deepEqual(r.json(), responses[0]!.json());
    assert.equal((await ledgerOf(t, c.id)).length, 1);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '1000.00', current_balance: '1000.00' });
    const other = await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { ...body, amount: 2000 }, { 'idempotency-key': 'adj-1' });
    assert.equal(other.statusCode, 409);
    // the same key for another customer is another request body too
    const c2 = await createCustomer(t);
    assert.equal((await bo(finance.cookie, 'POST', `/customer/${c2.id}/balance`, body, { 'idempotency-key': 'adj-1' })).statusCode, 409);
  });
});

describe('credit history and invoices', () => {
  test('GET credit-history: the ledger, newest first, paginated', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 30000 });
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '30000.00');
    await bo(finance.cookie, 'POST', `/customer/${c.id}/balance`, { type: 'DEDUCT', amount: 5000, description: 'correction' });
    const res = await bo(viewer.cookie, 'GET', `/customer/${c.id}/credit-history?page=1&limit=1`);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.meta, { page: 1, limit: 1, total: 2, total_pages: 2 });
    assert.equal(body.data[0].type, 'BalanceLogAdjustDeduct');
    assert.equal(body.data[0].actual_balance_after, 25000);
    const older = (await bo(viewer.cookie, 'GET', `/customer/${c.id}/credit-history?page=2&limit=1`)).json().data[0];
    assert.deepEqual([older.type, older.amount, older.reference_type, older.reference_id], ['BalanceLogAdd', 30000, 'topup_invoice', d.invoice_id]);
    assert.equal((await bo(viewer.cookie, 'GET', '/customer/999999/credit-history')).statusCode, 404);
  });

  test('GET /billing/prepaid/invoices: all customers, filters by status and customer', async () => {
    const a = await createCustomer(t);
    const b = await createCustomer(t);
    const pa = await deposit(t, a.id, { amount: 11000 });
    await deposit(t, b.id, { amount: 12000 });
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, pa.invoice_id)))).statusCode, 200);
    const all = (await bo(viewer.cookie, 'GET', '/billing/prepaid/invoices?limit=100')).json();
    assert.ok(all.meta.total >= 2);
    const mine = (await bo(viewer.cookie, 'GET', `/billing/prepaid/invoices?customer_id=${a.id}`)).json().data;
    assert.deepEqual(mine.map((i: any) => [i.invoice_id, i.customer_id, i.status]), [[pa.invoice_id, a.id, 'Paid']]);
    const pendingB = (await bo(viewer.cookie, 'GET', `/billing/prepaid/invoices?customer_id=${b.id}&status=Pending`)).json().data;
    assert.equal(pendingB.length, 1);
    assert.equal((await bo(viewer.cookie, 'GET', `/billing/prepaid/invoices?customer_id=${b.id}&status=Paid`)).json().data.length, 0);
    assert.equal((await bo(viewer.cookie, 'GET', '/billing/prepaid/invoices?status=paid')).statusCode, 400);
  });

  test('PUT topup-minimum: the customer sees the override; null restores the default', async () => {
    const c = await customerSession(t);
    const res = await bo(finance.cookie, 'PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: 75000 });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, { minimum_amount: 75000, currency: 'IDR', is_default: false });
    const mine = () => t.app.inject({ method: 'GET', url: '/api/billing/topup/minimum', headers: { cookie: c.cookie } });
    assert.equal((await mine()).json().data.minimum_amount, 75000);
    await bo(finance.cookie, 'PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: null });
    assert.equal((await mine()).json().data.minimum_amount, 10000);
    assert.equal((await bo(viewer.cookie, 'PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: 1 })).statusCode, 403);
    assert.equal((await bo(finance.cookie, 'PUT', '/customer/999999/topup-minimum', { minimum_amount: 1 })).statusCode, 404);
  });

  test('a minimum above the largest top-up is a 400 (it would make every top-up impossible)', async () => {
    const c = await customerSession(t);
    let res = await bo(finance.cookie, 'PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: 1000000000.01 });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().errors[0].field, 'minimum_amount');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/billing/topup/minimum', headers: { cookie: c.cookie } })).json().data.minimum_amount, 10000);
    res = await bo(finance.cookie, 'PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: 1000000000 });
    assert.equal(res.statusCode, 200, res.body);
    const d = await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie }, payload: { amount: 1000000000, gateway_name: 'pgone', method_code: 'SP' } });
    assert.equal(d.statusCode, 200, d.body);
  });
});

describe('coupons CRUD', () => {
  test('create, list, get, patch, delete; codes are unique case-insensitively', async () => {
    let res = await bo(finance.cookie, 'POST', '/coupons', { code: 'Spring25', type: 'PERCENT', value: 25, max_bonus: 50000, min_deposit: 100000, usage_limit: 100 });
    assert.equal(res.statusCode, 201, res.body);
    const coupon = res.json().data;
    assert.deepEqual([coupon.code, coupon.type, coupon.value, coupon.max_bonus, coupon.used_count, coupon.is_active], ['Spring25', 'PERCENT', 25, 50000, 0, true]);
    assert.equal((await bo(finance.cookie, 'POST', '/coupons', { code: 'SPRING25', type: 'FIXED', value: 5 })).statusCode, 409);
    assert.equal((await bo(finance.cookie, 'POST', '/coupons', { code: 'X1', type: 'FIXED', value: 5 })).statusCode, 400);
    assert.equal((await bo(finance.cookie, 'POST', '/coupons', { code: 'BADPCT', type: 'PERCENT', value: 101 })).statusCode, 400);
    assert.equal((await bo(finance.cookie, 'POST', '/coupons', { code: 'EXTRA', type: 'FIXED', value: 5, foo: 1 })).statusCode, 400);

    const list = (await bo(finance.cookie, 'GET', '/coupons?limit=100')).json();
    assert.ok(list.data.some((x: any) => x.id === coupon.id));
    assert.equal((await bo(finance.cookie, 'GET', `/coupons/${coupon.id}`)).json().data.code, 'Spring25');

    res = await bo(finance.cookie, 'PATCH', `/coupons/${coupon.id}`, { is_active: false, description: 'paused' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual([res.json().data.is_active, res.json().data.description], [false, 'paused']);
    assert.equal((await bo(finance.cookie, 'PATCH', `/coupons/${coupon.id}`, {})).statusCode, 400);
    const c = await createCustomer(t);
    await assert.rejects(deposit(t, c.id, { amount: 200000, coupon_code: 'spring25' }), (err: any) => err.code === 'COUPON_INACTIVE');
    await bo(finance.cookie, 'PATCH', `/coupons/${coupon.id}`, { is_active: true });
    assert.equal((await deposit(t, c.id, { amount: 200000, coupon_code: 'spring25' })).bonus_amount, '50000');

    assert.equal((await bo(finance.cookie, 'DELETE', `/coupons/${coupon.id}`)).statusCode, 200);
    assert.equal((await bo(finance.cookie, 'GET', `/coupons/${coupon.id}`)).statusCode, 404);
    assert.equal((await bo(finance.cookie, 'DELETE', `/coupons/${coupon.id}`)).statusCode, 404);
    await assert.rejects(deposit(t, c.id, { amount: 200000, coupon_code: 'spring25' }), (err: any) => err.code === 'COUPON_NOT_FOUND');
    // the code is free again
    assert.equal((await bo(finance.cookie, 'POST', '/coupons', { code: 'spring25', type: 'FIXED', value: 5 })).statusCode, 201);
    assert.equal((await bo(viewer.cookie, 'GET', '/coupons')).statusCode, 403);
  });

  test('the ledger still equals every wallet', async () => {
    for (const r of await walletsVsLedger(t)) {
      assert.equal(r.actual_balance, r.ledger_actual);
      assert.equal(r.current_balance, r.ledger_current);
    }
  });
});

describe('GET /api/backoffice/billing/payment-callbacks', () => {
  test('lists every callback as received, with its outcome, filtered by invoice, gateway, outcome and signature', async () => {
    const sales = await adminSession(t, { role: 'Admin Sales' });
    const c = await createCustomer(t);
    const one = await invoiceRow(t, (await deposit(t, c.id, { amount: 21000 })).invoice_id);
    const two = await invoiceRow(t, (await deposit(t, c.id, { amount: 22000, gateway_name: 'pgtwo' })).invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, one, '00', { signature: 'f'.repeat(64) }))).statusCode, 401);
    assert.equal((await postPgone(t, pgoneForm(t, one))).statusCode, 200);
    assert.equal((await postPgone(t, pgoneForm(t, one))).statusCode, 200);
    assert.equal((await postPgtwo(t, pgtwoCallback(t, two, 'FAILED'))).statusCode, 200);

    const res = await bo(sales.cookie, 'GET', `/billing/payment-callbacks?invoice_id=${one.id}`);
    assert.equal(res.statusCode, 200, res.body);
    const mine = res.json();
    assert.equal(mine.meta.total, 3);
    assert.deepEqual(
      mine.data.map((e: any) => [e.gateway, e.outcome, e.signature_valid, e.response_status]),
      [
        ['pgone', 'duplicate', true, 200],
        ['pgone', 'paid', true, 200],
        ['pgone', 'invalid_signature', false, 401],
      ],
    );
    assert.equal(mine.data[0].claimed_invoice_id, one.id);
    assert.match(mine.data[0].raw_body, new RegExp(`merchantOrderId=${one.id}`));
    assert.equal(mine.data[0].headers['content-type'], 'application/x-www-form-urlencoded');
    assert.ok(!Number.isNaN(Date.parse(mine.data[0].received_at)));

    const failed = (await bo(sales.cookie, 'GET', `/billing/payment-callbacks?gateway=pgtwo&outcome=failed&invoice_id=${two.id}`)).json();
    assert.deepEqual(failed.data.map((e: any) => [e.claimed_invoice_id, e.outcome]), [[two.id, 'failed']]);
    const forged = (await bo(sales.cookie, 'GET', `/billing/payment-callbacks?signature_valid=false&invoice_id=${one.id}`)).json();
    assert.deepEqual(forged.data.map((e: any) => e.outcome), ['invalid_signature']);
    const paged = (await bo(sales.cookie, 'GET', `/billing/payment-callbacks?invoice_id=${one.id}&limit=1&page=2`)).json();
    assert.deepEqual([paged.data.length, paged.data[0].outcome, paged.meta.total], [1, 'paid', 3]);

    for (const q of ['outcome=won', 'gateway=paypal', 'signature_valid=maybe', 'limit=0', 'invoice_id=', `invoice_id=${'x'.repeat(65)}`]) {
      const bad = await bo(sales.cookie, 'GET', `/billing/payment-callbacks?${q}`);
      assert.equal(bad.statusCode, 400, q);
      assert.equal(bad.json().code, 'VALIDATION_FAILED', q);
    }
    assert.equal((await bo(viewer.cookie, 'GET', '/billing/payment-callbacks')).statusCode, 403, 'view_billing alone does not show callbacks');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse as parseLossless, isLosslessNumber } from 'lossless-json';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { fund } from '../helpers/compute.js';
import { invoiceRow, pgoneForm, postPgone, wallet } from '../helpers/money.js';

// Exact figures (docs/api.md, "Money hardening"): money is serialized from its decimal value, never through a JS float.
let t: TestApp;
let staff: { cookie: string };
before(async () => {
  t = await buildTestApp();
  staff = await adminSession(t, { permissions: ['manage_balance', 'view_billing', 'edit_users', 'view_users', 'manage_coupons'] });
});
after(() => t.close());

/** The number as the JSON text wrote it (not as JSON.parse would round it). */
function exact(body: string, path: (string | number)[]): string {
  let v: unknown = parseLossless(body);
  for (const k of path) v = (v as Record<string | number, unknown>)[k];
  assert.ok(isLosslessNumber(v), `${path.join('.')} is a JSON number`);
  return String(v);
}

const bo = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });

describe('exact money in responses', () => {
  test('a wallet at 1000999000000000 and ADD 999999999.99: every answer shows 1000999999999999.99', async () => {
    const c = await customerSession(t);
    // (one request adds at most the money-input bound, 1,000,000,000: the wallet is filled directly)
    await fund(t, c.id, '1000999000000000.00');
    const res = await bo('POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: 999999999.99, description: 'bigger' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(exact(res.body, ['data', 'actual_balance']), '1000999999999999.99');
    assert.equal(exact(res.body, ['data', 'current_balance']), '1000999999999999.99');
    assert.equal(exact(res.body, ['data', 'entry', 'amount']), '999999999.99');
    assert.equal(exact(res.body, ['data', 'entry', 'actual_balance_after']), '1000999999999999.99');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '1000999999999999.99', current_balance: '1000999999999999.99' });

    const inf = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: c.cookie } });
    assert.equal(exact(inf.body, ['data', 'actual_balance']), '1000999999999999.99');
    assert.equal(exact(inf.body, ['data', 'current_balance']), '1000999999999999.99');
    const history = await bo('GET', `/customer/${c.id}/credit-history`);
    assert.equal(exact(history.body, ['data', 0, 'current_balance_after']), '1000999999999999.99');
    const detail = await bo('GET', `/customer/${c.id}`);
    assert.equal(detail.statusCode, 200);
    if (/actual_balance/.test(detail.body)) assert.match(detail.body, /"actual_balance":1000999999999999\.99[,}]/);
  });

  test('a wallet at 9000000000010000 shows 9000000000010000 in /api/inf (no Math.round(n*100)/100)', async () => {
    const c = await customerSession(t);
    await fund(t, c.id, '9000000000010000.00');
    const inf = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: c.cookie } });
    assert.equal(exact(inf.body, ['data', 'actual_balance']), '9000000000010000');
    assert.equal(exact(inf.body, ['data', 'current_balance']), '9000000000010000');
    const profile = await t.app.inject({ method: 'GET', url: '/api/customer/profile', headers: { cookie: c.cookie } });
    if (/actual_balance/.test(profile.body)) assert.equal(exact(profile.body, ['data', 'actual_balance']), '9000000000010000');
  });

  test('deposits and their invoices: amounts, fees and bonuses are the decimal values', async () => {
    const c = await customerSession(t);
    await t.container.services.coupons.create({ code: 'CENTS', type: 'PERCENT', value: 12.34, max_bonus: 999999.99 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/deposit',
      headers: { cookie: c.cookie },
      payload: { amount: 999999999.99, gateway_name: 'pgone', method_code: 'SP', coupon_code: 'cents' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(exact(res.body, ['data', 'amount']), '999999999.99');
    assert.equal(exact(res.body, ['data', 'bonus_amount']), '999999.99');
    const inv = await invoiceRow(t, res.json().data.invoice_id);
    assert.equal(exact(res.body, ['data', 'total_amount']), inv.total_amount.replace(/\.?0+$/, ''));
    assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.current_balance === '1000999999.98');
    const mine = await t.app.inject({ method: 'GET', url: `/api/billing/deposit/${inv.id}`, headers: { cookie: c.cookie } });
    assert.equal(exact(mine.body, ['data', 'credited_amount']), '999999999.99');
    assert.equal(exact(mine.body, ['data', 'credited_bonus']), '999999.99');
    const coupons = await bo('GET', '/coupons?limit=100');
    const i = coupons.json().data.findIndex((x: any) => x.code === 'CENTS');
    assert.equal(exact(coupons.body, ['data', i, 'value']), '12.34');
    assert.equal(exact(coupons.body, ['data', i, 'max_bonus']), '999999.99');
  });

  test('an Idempotency-Key replay answers the same exact text', async () => {
    const c = await customerSession(t);
    await fund(t, c.id, '1000000000000000.50');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/backoffice/customer/${c.id}/balance`,
        headers: { cookie: staff.cookie, 'idempotency-key': `exact-${c.id}` },
        payload: { type: 'ADD', amount: 0.01, description: 'replayed' },
      });
    const first = await send();
    assert.equal(first.statusCode, 200, first.body);
    const again = await send();
    assert.equal(exact(again.body, ['data', 'actual_balance']), exact(first.body, ['data', 'actual_balance']));
    assert.equal(exact(first.body, ['data', 'actual_balance']), '1000000000000000.51');
    assert.equal((await wallet(t, c.id))?.actual_balance, '1000000000000000.51');
  });
});

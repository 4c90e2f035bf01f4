import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { ledgerOf, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
const clock = new ManualClock('2030-05-01T08:00:00.000Z');
let billing: { cookie: string };
before(async () => {
  t = await buildTestApp({ clock });
  billing = await adminSession(t, { permissions: ['manage_coupons'] });
});
after(() => t.close());

const createCode = (body: Record<string, unknown>, cookie = billing.cookie) => t.app.inject({ method: 'POST', url: '/api/backoffice/redeem-codes', headers: { cookie }, payload: body });
const redeem = (cookie: string, code: string) => t.app.inject({ method: 'POST', url: '/api/billing/redeem', headers: { cookie }, payload: { code } });

describe('redeem codes: backoffice CRUD', () => {
  test('create, list, get, update, delete; audited; permission manage_coupons', async () => {
    const other = await adminSession(t, { permissions: ['view_billing'] });
    assert.equal((await createCode({ code: 'NOPE1', amount: 1000 }, other.cookie)).statusCode, 403);

    const res = await createCode({ code: 'Spring-2030', amount: 15000.5, usage_limit: 3, valid_from: '2030-05-01T00:00:00Z', valid_until: '2030-06-01T00:00:00Z' });
    assert.equal(res.statusCode, 201, res.body);
    const code = res.json().data;
    assert.equal(code.amount, 15000.5);
    assert.equal(code.used_count, 0);
    assert.equal(code.valid_until, '2030-06-01T00:00:00.000Z');
    assert.equal((await createCode({ code: 'spring-2030', amount: 1 })).json().code, 'REDEEM_CODE_TAKEN');
    assert.equal((await createCode({ code: 'BAD', amount: 1, valid_from: '2030-06-01T00:00:00Z', valid_until: '2030-05-01T00:00:00Z' })).statusCode, 400);
    assert.equal((await createCode({ code: 'BAD2', amount: 1, extra: 1 })).statusCode, 400);
    assert.equal((await createCode({ code: 'BAD3', amount: 0.001 })).statusCode, 400);

    const list = await t.app.inject({ method: 'GET', url: '/api/backoffice/redeem-codes?page=1&limit=10', headers: { cookie: billing.cookie } });
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().data.some((c: { id: number }) => c.id === code.id));
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/redeem-codes/${code.id}`, headers: { cookie: billing.cookie }, payload: { usage_limit: 5, is_active: false } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.usage_limit, 5);
    assert.equal(patched.json().data.is_active, false);
    const c = await customerSession(t);
    assert.equal((await redeem(c.cookie, 'SPRING-2030')).json().code, 'REDEEM_CODE_INACTIVE');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/redeem-codes/${code.id}`, headers: { cookie: billing.cookie } });
    assert.equal(del.statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/backoffice/redeem-codes/${code.id}`, headers: { cookie: billing.cookie } })).statusCode, 404);
    assert.equal((await redeem(c.cookie, 'spring-2030')).json().code, 'REDEEM_CODE_NOT_FOUND');

    const actions = await queryRows<{ action: string }>(t.container.db, sql`select action from audit_logs where action like 'redeem_code.%' order by id`);
    assert.deepEqual(actions.map((a) => a.action), ['redeem_code.created', 'redeem_code.updated', 'redeem_code.deleted']);
  });
});

describe('redeem codes: customers', () => {
  test('a redemption is its own bonus ledger entry; once per customer; the window holds', async () => {
    await createCode({ code: 'WINDOW', amount: 2500, valid_from: '2030-05-01T08:05:00Z', valid_until: '2030-05-01T08:10:00Z' });
    const c = await customerSession(t);
    assert.equal((await redeem(c.cookie, 'window')).json().code, 'REDEEM_CODE_NOT_YET_VALID');
    clock.set('2030-05-01T08:05:00.000Z');
    const ok = await redeem(c.cookie, 'window');
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json().data, { code: 'WINDOW', amount: 2500, current_balance: 2500 });
    const again = await redeem(c.cookie, 'WINDOW');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'ALREADY_REDEEMED');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '0.00', current_balance: '2500.00' });
    assert.deepEqual(
      (await ledgerOf(t, c.id)).map((e) => [e.type, e.amount, e.actual_amount, e.bonus_amount, e.reference_type]),
      [['BalanceLogBonus', '2500.00', '0.00', '2500.00', 'redeem_code']],
    );
    const late = await customerSession(t);
    clock.set('2030-05-01T08:10:00.000Z');
    assert.equal((await redeem(late.cookie, 'window')).json().code, 'REDEEM_CODE_EXPIRED');
  });

  test('50 customers redeeming a code limited to 10 at once: exactly 10 succeed; one customer racing itself gets it once', async () => {
    const created = await createCode({ code: 'RACE10', amount: 1000, usage_limit: 10 });
    const customers = await Promise.all(Array.from({ length: 50 }, () => customerSession(t)));
    const answers = await Promise.all(customers.map((c) => redeem(c.cookie, 'RACE10')));
    const ok = answers.filter((r) => r.statusCode === 200);
    assert.equal(ok.length, 10);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      assert.equal(r.statusCode, 400, r.body);
      assert.equal(r.json().code, 'REDEEM_CODE_USED_UP');
    }
    const code = await t.app.inject({ method: 'GET', url: `/api/backoffice/redeem-codes/${created.json().data.id}`, headers: { cookie: billing.cookie } });
    assert.equal(code.json().data.used_count, 10);
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from balance_logs where reference_type = 'redeem_code' and reference_id like ${created.json().data.id + ':%'}`);
    assert.equal(n!.n, 10);

    await createCode({ code: 'SELF', amount: 700, usage_limit: 100 });
    const one = await customerSession(t);
    const mine = await Promise.all(Array.from({ length: 20 }, () => redeem(one.cookie, 'SELF')));
    assert.equal(mine.filter((r) => r.statusCode === 200).length, 1);
    assert.ok(mine.filter((r) => r.statusCode !== 200).every((r) => r.json().code === 'ALREADY_REDEEMED'));
    assert.deepEqual(await wallet(t, one.id), { actual_balance: '0.00', current_balance: '700.00' });
    for (const w of await walletsVsLedger(t)) {
      assert.equal(w.current_balance, w.ledger_current);
      assert.equal(w.actual_balance, w.ledger_actual);
    }
  });
});

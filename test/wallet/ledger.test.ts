import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createCustomer, ledgerOf, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const w = () => t.container.services.wallet;
const tx = <T>(fn: (tx: any) => Promise<T>) => t.container.db.transaction(fn);

describe('wallet ledger', () => {
  test('balance_logs refuses UPDATE, DELETE and TRUNCATE', async () => {
    const c = await createCustomer(t);
    await tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.AdjustAdd, amount: '100', part: 'actual', referenceType: 'test', referenceId: 'a1', description: 'x' }));
    for (const statement of [
      sql`update balance_logs set amount = 1000000 where customer_id = ${c.id}`,
      sql`update balance_logs set description = 'edited'`,
      sql`delete from balance_logs where customer_id = ${c.id}`,
      sql`truncate balance_logs cascade`,
    ]) {
      await assert.rejects(t.container.db.execute(statement), (err: any) => /append-only/.test(err.cause?.message ?? err.message));
    }
    assert.equal((await ledgerOf(t, c.id))[0]!.amount, '100.00');
  });

  test('a credit creates the wallet; the same (type, reference) never lands twice', async () => {
    const c = await createCustomer(t);
    assert.equal(await wallet(t, c.id), undefined);
    const input = { customerId: c.id, type: BalanceLogType.Add, amount: '15000.50', part: 'actual' as const, referenceType: 'topup_invoice', referenceId: 'inv-1', description: 'top-up' };
    const results = await Promise.all(Array.from({ length: 20 }, () => tx((x) => w().credit(x, input))));
    assert.equal(results.filter((r) => r.applied).length, 1);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '15000.50', current_balance: '15000.50' });
    // the same reference under another type is another event (a coupon bonus for the invoice)
    const bonus = await tx((x) => w().credit(x, { ...input, type: BalanceLogType.Bonus, amount: '500', part: 'bonus' }));
    assert.equal(bonus.applied, true);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '15000.50', current_balance: '15500.50' });
    const entries = await ledgerOf(t, c.id);
    assert.deepEqual(
      entries.map((e) => [e.type, e.amount, e.actual_amount, e.bonus_amount]),
      [
        ['BalanceLogAdd', '15000.50', '15000.50', '0.00'],
        ['BalanceLogBonus', '500.00', '0.00', '500.00'],
      ],
    );
  });

  test('DEDUCT takes real money only and may not go below zero', async () => {
    const c = await createCustomer(t);
    await tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.Add, amount: '1000', part: 'actual', referenceType: 't', referenceId: `d-${c.id}-1`, description: 'x' }));
    await tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.Bonus, amount: '300', part: 'bonus', referenceType: 't', referenceId: `d-${c.id}-1`, description: 'x' }));
    const deduct = (amount: string, ref: string) =>
      tx((x) => w().debit(x, { customerId: c.id, type: BalanceLogType.AdjustDeduct, amount, from: 'actual', allowNegative: false, referenceType: 'manual', referenceId: ref, description: 'x' }));
    await assert.rejects(deduct('1000.01', 'r1'), (err: any) => err.code === 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '1000.00', current_balance: '1300.00' });
    const ok = await deduct('1000', 'r2');
    assert.equal(ok.applied, true);
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '0.00', current_balance: '300.00' });
    // a repeated debit is a no-op, not an insufficient-balance error
    assert.equal((await deduct('1000', 'r2')).applied, false);
  });

  test('charges take bonus credit first and may go below zero', async () => {
    const c = await createCustomer(t);
    await tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.Add, amount: '100', part: 'actual', referenceType: 't', referenceId: `c-${c.id}`, description: 'x' }));
    await tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.Bonus, amount: '30', part: 'bonus', referenceType: 't', referenceId: `c-${c.id}`, description: 'x' }));
    const charge = (amount: string, ref: string) =>
      tx((x) => w().debit(x, { customerId: c.id, type: BalanceLogType.Charge, amount, from: 'bonus_first', allowNegative: true, referenceType: 'usage', referenceId: ref, description: 'hour' }));
    await charge('20', 'h1');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '100.00', current_balance: '110.00' });
    await charge('50', 'h2'); // 10 bonus left, 40 from real money
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '60.00', current_balance: '60.00' });
    await charge('75.25', 'h3');
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '-15.25', current_balance: '-15.25' });
    const entries = await ledgerOf(t, c.id);
    assert.deepEqual(entries.slice(2).map((e) => [e.amount, e.actual_amount, e.bonus_amount]), [
      ['-20.00', '0.00', '-20.00'],
      ['-50.00', '-40.00', '-10.00'],
      ['-75.25', '-75.25', '0.00'],
    ]);
  });

  test('amounts must be positive with at most 2 decimals', async () => {
    const c = await createCustomer(t);
    for (const amount of ['0', '-5', '1.005', 'abc']) {
      await assert.rejects(
        tx((x) => w().credit(x, { customerId: c.id, type: BalanceLogType.AdjustAdd, amount, part: 'actual', referenceType: 't', referenceId: amount, description: 'x' })),
      );
    }
    assert.equal(await wallet(t, c.id), undefined);
  });

  test('every wallet equals the sum of its ledger and its last entry', async () => {
    const rows = await walletsVsLedger(t);
    assert.ok(rows.length >= 4);
    for (const r of rows) {
      assert.equal(r.actual_balance, r.ledger_actual);
      assert.equal(r.current_balance, r.ledger_current);
      assert.equal(r.actual_balance, r.last_actual_after);
      assert.equal(r.current_balance, r.last_current_after);
    }
    const [bad] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from balance_logs where amount <> actual_amount + bonus_amount`);
    assert.equal(bad!.n, 0);
  });
});

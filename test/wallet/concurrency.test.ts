import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createCustomer, deposit, invoiceRow, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const cents = fc.integer({ min: 1, max: 5_000_000 }).map((n) => new Decimal(n).div(100).toFixed(2));
const op = fc.oneof(
  fc.record({
    kind: fc.constant('topup' as const),
    who: fc.nat(2),
    amount: fc.integer({ min: 10_000, max: 2_000_000 }).map(String),
    gateway: fc.constantFrom('pgone', 'pgtwo'),
    replays: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('add' as const), who: fc.nat(2), amount: cents }),
  fc.record({ kind: fc.constant('deduct' as const), who: fc.nat(2), amount: cents }),
  fc.record({ kind: fc.constant('charge' as const), who: fc.nat(2), amount: cents }),
);

let refSeq = 0;

describe('random concurrent sequences keep every wallet equal to its ledger', () => {
  test('top-ups (with replayed callbacks), adjustments and charges in parallel', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const customers = [await createCustomer(t), await createCustomer(t), await createCustomer(t)];
        const expected = customers.map(() => new Decimal(0));
        const pending: string[] = [];
        // Deposits are created first; everything that moves money then runs at once.
        const actions: (() => Promise<void>)[] = [];
        for (const o of ops) {
          const c = customers[o.who]!;
          const ref = `seq-${++refSeq}`;
          if (o.kind === 'topup') {
            const d = await deposit(t, c.id, { amount: Number(o.amount), gateway_name: o.gateway, method_code: o.gateway === 'pgone' ? 'BC' : 'DANA' });
            const inv = await invoiceRow(t, d.invoice_id);
            pending.push(inv.id);
            expected[o.who] = expected[o.who]!.plus(o.amount);
            for (let i = 0; i < o.replays; i++) {
              actions.push(async () => {
                const res = o.gateway === 'pgone' ? await postPgone(t, pgoneForm(t, inv)) : await postPgtwo(t, pgtwoCallback(t, inv));
                assert.equal(res.statusCode, 200, res.body);
              });
            }
          } else if (o.kind === 'add') {
            expected[o.who] = expected[o.who]!.plus(o.amount);
            actions.push(async () => {
              await t.container.db.transaction((tx) =>
                t.container.services.wallet.credit(tx, { customerId: c.id, type: BalanceLogType.AdjustAdd, amount: o.amount, part: 'actual', referenceType: 'manual_adjustment', referenceId: ref, description: 'add' }),
              );
            });
          } else {
            const isCharge = o.kind === 'charge';
            actions.push(async () => {
              try {
                await t.container.db.transaction((tx) =>
                  t.container.services.wallet.debit(tx, {
                    customerId: c.id,
                    type: isCharge ? BalanceLogType.Charge : BalanceLogType.AdjustDeduct,
                    amount: o.amount,
                    from: isCharge ? 'bonus_first' : 'actual',
                    allowNegative: isCharge,
                    referenceType: isCharge ? 'usage' : 'manual_adjustment',
                    referenceId: ref,
                    description: o.kind,
                  }),
                );
                expected[o.who] = expected[o.who]!.minus(o.amount);
              } catch (err: any) {
                assert.equal(err.code, 'INSUFFICIENT_BALANCE');
              }
            });
          }
        }
        await Promise.all(actions.map((a) => a()));
        await eventually(async () => {
          if (pending.length === 0) return true;
          const [row] = await queryRows<{ n: number }>(
            t.container.db,
            sql`select count(*)::int as n from topup_invoices where id = any(${sql.raw(`ARRAY[${pending.map((p) => `'${p}'::uuid`).join(',')}]`)}) and credited_at is null`,
          );
          return row!.n === 0;
        }, 20_000);
        for (const [i, c] of customers.entries()) {
          const got = (await wallet(t, c.id)) ?? { actual_balance: '0.00', current_balance: '0.00' };
          assert.equal(got.current_balance, expected[i]!.toFixed(2), `customer ${i}`);
          assert.equal(got.actual_balance, expected[i]!.toFixed(2), 'no bonus credit in this sequence');
        }
      }),
      { numRuns: 8 },
    );
    for (const r of await walletsVsLedger(t)) {
      assert.equal(r.actual_balance, r.ledger_actual);
      assert.equal(r.current_balance, r.ledger_current);
    }
    const [broken] = await queryRows<{ n: number }>(
      t.container.db,
      sql`select count(*)::int as n from (
            select actual_balance_after, current_balance_after,
                   sum(actual_amount) over (partition by customer_id order by id) as running_actual,
                   sum(amount) over (partition by customer_id order by id) as running_current
            from balance_logs) x
          where running_actual <> actual_balance_after or running_current <> current_balance_after`,
    );
    assert.equal(broken!.n, 0, 'every entry records the balance after it, in order');
    const [dupes] = await queryRows<{ n: number }>(
      t.container.db,
      sql`select count(*)::int as n from (select reference_id from balance_logs where type = 'BalanceLogAdd' group by reference_id having count(*) > 1) d`,
    );
    assert.equal(dupes!.n, 0);
  });
});

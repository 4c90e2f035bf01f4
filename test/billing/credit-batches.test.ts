// TopupCallbackSuccessTask in batches (docs/architecture.md, "Crediting at scale"): the billing-high worker
// credits up to CREDIT_BATCH_SIZE invoices in one transaction. Exactly once under overlapping
// batches, duplicate jobs and several workers; one bad invoice neither blocks nor fails the others
// and is recorded as a credit failure; coupon bonus and listeners still run per invoice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { createCustomer, deposit, ledgerOf, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const payments = () => t.container.services.topupCrediting;

/** Deposits made through the service, then marked Paid directly (no credit job), in this order of payment. */
async function paidInvoices(customers: { id: number }[], perCustomer: number, amount = (i: number) => 10000 + i * 1000): Promise<{ id: string; customerId: number }[]> {
  const out: { id: string; customerId: number }[] = [];
  for (const c of customers) for (let i = 0; i < perCustomer; i++) out.push({ id: (await deposit(t, c.id, { amount: amount(i) })).invoice_id, customerId: c.id });
  for (const [i, inv] of out.entries()) {
    await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = now() + make_interval(secs => ${i}) where id = ${inv.id}`);
  }
  return out;
}

/** Every wallet equals the sums of its ledger and its last entry's balances after. */
async function assertLedgerIsBalances() {
  for (const w of await walletsVsLedger(t)) {
    assert.equal(w.actual_balance, w.ledger_actual, `actual balance of ${w.customer_id} = Σ ledger`);
    assert.equal(w.current_balance, w.ledger_current, `current balance of ${w.customer_id} = Σ ledger`);
    if (w.last_actual_after !== null) {
      assert.equal(w.actual_balance, w.last_actual_after, `actual balance of ${w.customer_id} = its last entry's balance after`);
      assert.equal(w.current_balance, w.last_current_after);
    }
  }
}

async function assertCreditedOnce(ids: string[]) {
  const rows = await queryRows<{ id: string; credited: boolean; entries: number; receipts: number; notified: number }>(
    t.container.db,
    sql`select i.id::text, i.credited_at is not null as credited,
               (select count(*)::int from balance_logs l where l.type = 'BalanceLogAdd' and l.reference_type = 'topup_invoice' and l.reference_id = i.id::text) as entries,
               (select count(*)::int from mail_outbox m where m.template = 'receipt' and m.text_body like '%' || i.id::text || '%') as receipts,
               (select count(*)::int from notifications n where n.customer_id = i.customer_id and n.kind = 'TOPUP_CREDITED'
                  and n.reference_type = 'topup_invoice' and n.reference_id = i.id::text) as notified
        from topup_invoices i where i.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  assert.equal(rows.length, new Set(ids).size);
  for (const r of rows) {
    assert.equal(r.credited, true, `${r.id} credited`);
    assert.equal(r.entries, 1, `${r.id}: exactly one BalanceLogAdd`);
    assert.equal(r.receipts, 1, `${r.id}: exactly one receipt`);
    assert.equal(r.notified, 1, `${r.id}: exactly one TOPUP_CREDITED notification, with the receipt`);
  }
}

/** Records every batch the service credits (the worker's runs included): its invoice ids and whether it failed. */
function spyBatches(svc = payments()): { ids: string[]; failed: boolean }[] {
  const calls: { ids: string[]; failed: boolean }[] = [];
  const original = svc.creditPaidInvoices.bind(svc);
  svc.creditPaidInvoices = async (ids: string[]) => {
    const call = { ids: [...ids], failed: false };
    calls.push(call);
    try {
      return await original(ids);
    } catch (err) {
      call.failed = true; // the batch failed (its invoices are then credited one by one)
      throw err;
    }
  };
  return calls;
}

describe('crediting in batches', () => {
  test('overlapping batches in parallel, with duplicates: every invoice credited exactly once, ledger = wallets', async () => {
    const customers = await Promise.all(Array.from({ length: 6 }, () => createCustomer(t)));
    const invoices = await paidInvoices(customers, 6);
    const ids = invoices.map((i) => i.id);
    const batches = [ids.slice(0, 24), ids.slice(12), [...ids].reverse().concat(ids.slice(0, 6)), ids.slice(30).concat(ids.slice(30))];
    const results = await Promise.all(batches.map((b) => payments().creditPaidInvoices(b)));
    for (const id of ids) {
      assert.equal(results.filter((r) => r.get(id) === true).length, 1, `${id} credited by exactly one batch`);
    }
    await assertCreditedOnce(ids);
    await assertLedgerIsBalances();
    // and a replay of the whole set is a no-op
    const again = await payments().creditPaidInvoices(ids);
    assert.deepEqual([...again.values()].filter(Boolean), []);
    for (const c of customers) assert.equal((await ledgerOf(t, c.id)).length, 6);
  });

  test('the worker takes its jobs in batches: duplicate jobs and several workers credit once', async () => {
    const second = t.database ? await buildTestApp({ sameDatabaseAs: t }) : undefined; // a second worker process (PostgreSQL)
    try {
      const calls = spyBatches();
      const secondCalls = second ? spyBatches(second.container.services.topupCrediting) : [];
      const customers = await Promise.all(Array.from({ length: 4 }, () => createCustomer(t)));
      const invoices = await paidInvoices(customers, 10);
      const jobs = invoices.flatMap((i) => [{ invoiceId: i.id }, { invoiceId: i.id }]);
      await t.container.queue.sendMany(payments().creditJob, jobs);
      await queueDrained(t, { queues: ['billing-high'] });
      await assertCreditedOnce(invoices.map((i) => i.id));
      await assertLedgerIsBalances();
      const sizes = [...calls, ...secondCalls].map((c) => c.ids.length);
      assert.ok(sizes.some((n) => n > 1), `the worker credited batches (sizes ${sizes.join(', ')})`);
      assert.equal(sizes.reduce((a, b) => a + b, 0), jobs.length, 'every job ran once');
      const [failed] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from pgboss.job where name = 'billing-high' and state <> 'completed'`);
      assert.equal(failed!.n, 0);
    } finally {
      await second?.close();
    }
  });

  test('one bad invoice does not stop its batch: the others are credited, it is recorded as a credit failure (permanent or retried)', async () => {
    const calls = spyBatches();
    const good = await Promise.all(Array.from({ length: 3 }, () => createCustomer(t)));
    const goodInvoices = await paidInvoices(good, 3);
    // a customer whose wallet is full: crediting it breaks a business rule (BALANCE_LIMIT), for good
    const full = await createCustomer(t);
    const [bad] = await paidInvoices([full], 1);
    await t.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${full.id}, 9999999999999990.00, 9999999999999990.00)
                                      on conflict (customer_id) do update set actual_balance = excluded.actual_balance, current_balance = excluded.current_balance`);
    await t.container.db.execute(sql`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
                                      values (${full.id}, 'BalanceLogAdjustAdd', 9999999999999990.00, 9999999999999990.00, 0, 9999999999999990.00, 9999999999999990.00, 'test', ${String(full.id)}, 'fill')`);
    // an invoice whose credit fails for a passing reason (a required listener down): retried on its own
    const flaky = await createCustomer(t);
    const [transient] = await paidInvoices([flaky], 1);
    const failing = new Set([transient!.id]);
    const settlement = t.container.services.postpaidPayments;
    const settle = settlement.onTopupsCredited.bind(settlement);
    settlement.onTopupsCredited = async (tx, topups) => {
      if (topups.some((x) => failing.has(x.invoiceId))) throw new Error('settlement service down');
      return settle(tx, topups);
    };

    const all = [...goodInvoices.slice(0, 4), bad!, ...goodInvoices.slice(4), transient!];
    try {
      await t.container.queue.sendMany(payments().creditJob, all.map((i) => ({ invoiceId: i.id })));
      // two workers may share the fetch: wait for both failures and for every good invoice
      await eventually(async () => {
        const [row] = await queryRows<{ failures: number; credited: number }>(
          t.container.db,
          sql`select (select count(*)::int from topup_credit_failures where invoice_id in (${bad!.id}::uuid, ${transient!.id}::uuid)) as failures,
                     (select count(*)::int from topup_invoices where credited_at is not null and id = any(${`{${goodInvoices.map((i) => i.id).join(',')}}`}::uuid[])) as credited`,
        );
        return row!.failures === 2 && row!.credited === goodInvoices.length;
      }, 15_000);
      await assertCreditedOnce(goodInvoices.map((i) => i.id));
      // every batch that held a bad invoice with others failed as a whole, and its good invoices were still credited
      const mixed = calls.filter((c) => c.ids.length > 1 && (c.ids.includes(bad!.id) || c.ids.includes(transient!.id)));
      assert.ok(mixed.length > 0 || calls.some((c) => c.ids.length === 1 && c.ids[0] === bad!.id), `the bad invoices were credited (${JSON.stringify(calls)})`);
      for (const c of mixed) assert.equal(c.failed, true, 'a batch with a bad invoice fails as a whole (rolled back) and is credited one by one');
      const failures = await queryRows<{ invoice_id: string; permanent: boolean; error_code: string; resolved: boolean }>(
        t.container.db,
        sql`select invoice_id::text, permanent, error_code, resolved_at is not null as resolved from topup_credit_failures where invoice_id in (${bad!.id}::uuid, ${transient!.id}::uuid)`,
      );
      const byId = new Map(failures.map((f) => [f.invoice_id, f]));
      assert.deepEqual({ ...byId.get(bad!.id)!, invoice_id: undefined }, { invoice_id: undefined, permanent: true, error_code: 'BALANCE_LIMIT', resolved: false });
      assert.equal(byId.get(transient!.id)!.permanent, false, 'a passing failure is retried');
      assert.deepEqual(await wallet(t, full.id), { actual_balance: '9999999999999990.00', current_balance: '9999999999999990.00' });
    } finally {
      // the cause goes away: the retry (pg-boss, its own job) credits it and resolves its failure
      failing.clear();
    }
    await eventually(async () => {
      const [row] = await queryRows<{ resolved: boolean }>(t.container.db, sql`select resolved_at is not null as resolved from topup_credit_failures where invoice_id = ${transient!.id}::uuid`);
      return row!.resolved;
    }, 20_000);
    await assertCreditedOnce([...goodInvoices.map((i) => i.id), transient!.id]);
    await assertLedgerIsBalances();
    const [bad_] = await queryRows<{ credited: boolean; notified: number }>(
      t.container.db,
      sql`select credited_at is not null as credited, (select count(*)::int from notifications where customer_id = ${full.id} and kind = 'TOPUP_CREDITED') as notified
          from topup_invoices where id = ${bad!.id}::uuid`,
    );
    assert.deepEqual(bad_, { credited: false, notified: 0 }, 'the failed credit rolled back its notification with it');
    await queueDrained(t, { queues: ['billing-high'] });
  });

  test('in one batch the coupon bonus, the first top-up reward and the resume after suspension still apply per invoice', async () => {
    await t.container.db.execute(sql`insert into reward_settings (id, first_top_up_percent, first_top_up_max_bonus) values (1, 10, 5000)
                                      on conflict (id) do update set first_top_up_percent = 10, first_top_up_max_bonus = 5000, referral_percent = 0`);
    const coupon = await t.container.services.coupons.create({ code: 'BATCH25', type: 'FIXED', value: 2500, usage_limit: 10 });
    const x = await createCustomer(t);
    const y = await createCustomer(t);
    const z = await createCustomer(t);
    // x: three top-ups paid in this order, the first with the coupon; y: one with the coupon
    const x1 = (await deposit(t, x.id, { amount: 10000, coupon_code: 'BATCH25' })).invoice_id;
    const x2 = (await deposit(t, x.id, { amount: 20000 })).invoice_id;
    const x3 = (await deposit(t, x.id, { amount: 30000 })).invoice_id;
    const y1 = (await deposit(t, y.id, { amount: 40000, coupon_code: 'BATCH25' })).invoice_id;
    // z: suspended for a balance below zero; its top-up brings it back above
    const z1 = (await deposit(t, z.id, { amount: 10000 })).invoice_id;
    await t.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${z.id}, -5000, -5000)
                                      on conflict (customer_id) do update set actual_balance = -5000, current_balance = -5000`);
    await t.container.db.execute(sql`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
                                      values (${z.id}, 'BalanceLogCharge', -5000, -5000, 0, -5000, -5000, 'test', ${String(z.id)}, 'usage')`);
    await t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = 'INSUFFICIENT_BALANCE' where id = ${z.id}`);
    const order = [x1, x2, x3, y1, z1];
    for (const [i, id] of order.entries()) await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = now() + make_interval(secs => ${i}) where id = ${id}`);

    const credited = await payments().creditPaidInvoices([...order].reverse()); // one batch, given in any order
    assert.deepEqual(order.map((id) => credited.get(id)), [true, true, true, true, true]);

    const lx = await ledgerOf(t, x.id);
    assert.deepEqual(
      lx.map((e) => [e.type, e.reference_type, e.reference_id === x1 ? 'x1' : e.reference_id === x2 ? 'x2' : e.reference_id === x3 ? 'x3' : 'customer', e.amount]),
      [
        ['BalanceLogAdd', 'topup_invoice', 'x1', '10000.00'],
        ['BalanceLogAdd', 'topup_invoice', 'x2', '20000.00'],
        ['BalanceLogAdd', 'topup_invoice', 'x3', '30000.00'],
        ['BalanceLogBonus', 'topup_invoice', 'x1', '2500.00'],
        ['BalanceLogBonus', 'reward_first_top_up', 'customer', '1000.00'], // 10 % of the first paid top-up, once
      ],
    );
    const ly = await ledgerOf(t, y.id);
    assert.deepEqual(
      ly.map((e) => [e.type, e.reference_type, e.amount]),
      [
        ['BalanceLogAdd', 'topup_invoice', '40000.00'],
        ['BalanceLogBonus', 'topup_invoice', '2500.00'],
        ['BalanceLogBonus', 'reward_first_top_up', '4000.00'],
      ],
    );
    const bonus = await queryRows<{ id: string; bonus_status: string; credited_bonus: string }>(
      t.container.db,
      sql`select id::text, bonus_status, credited_bonus::text from topup_invoices where id in (${x1}::uuid, ${x2}::uuid, ${y1}::uuid)`,
    );
    assert.deepEqual(Object.fromEntries(bonus.map((b) => [b.id, [b.bonus_status, b.credited_bonus]])), {
      [x1]: ['credited', '2500.00'],
      [x2]: ['none', '0.00'],
      [y1]: ['credited', '2500.00'],
    });
    assert.equal((await t.container.services.coupons.get(coupon.id)).usedCount, 2);
    const [zRow] = await queryRows<{ suspended: boolean }>(t.container.db, sql`select suspended_at is not null as suspended from customers where id = ${z.id}`);
    assert.equal(zRow!.suspended, false, 'the top-up lifted the suspension');
    const zNotes = await queryRows<{ kind: string }>(t.container.db, sql`select kind from notifications where customer_id = ${z.id} and kind in ('RESUMED', 'TOPUP_CREDITED') order by kind`);
    assert.deepEqual(zNotes.map((n) => n.kind), ['RESUMED', 'TOPUP_CREDITED']);
    // -5000 + 10000, and its own first top-up reward (10 %) as bonus credit
    assert.deepEqual(await wallet(t, z.id), { actual_balance: '5000.00', current_balance: '6000.00' });
    await assertCreditedOnce(order);
    await assertLedgerIsBalances();
    await queueDrained(t);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, queueDrained, eventually, type TestApp } from '../helpers/app.js';
import {
  createCustomer,
  creditJobsFor,
  deposit,
  invoiceRow,
  ledgerOf,
  pgoneForm,
  pgtwoCallback,
  postPgone,
  postPgtwo,
  wallet,
  walletsVsLedger,
} from '../helpers/money.js';

let t: TestApp;
before(async () => {
  // on the embedded database 100 callbacks queue for its one connection; on a busy machine the
  // last of them may wait longer than the default 10 s, and what is tested here is exactly-once
  t = await buildTestApp({ env: { DATABASE_WAIT_TIMEOUT_MS: '60000' } });
});
after(() => t.close());

async function assertCreditedOnce(customerId: number, invoiceId: string, amount: string) {
  const inv = await invoiceRow(t, invoiceId);
  assert.equal(inv.status, 'Paid');
  const entries = (await ledgerOf(t, customerId)).filter((e) => e.reference_id === invoiceId);
  assert.equal(entries.length, 1, 'exactly one ledger entry for the invoice');
  assert.equal(entries[0]!.type, 'BalanceLogAdd');
  assert.equal(entries[0]!.amount, amount);
  assert.deepEqual(await wallet(t, customerId), { actual_balance: amount, current_balance: amount });
  assert.equal(await creditJobsFor(t, invoiceId), 1, 'one TopupCallbackSuccessTask queued');
  for (const w of await walletsVsLedger(t)) {
    assert.equal(w.actual_balance, w.ledger_actual, `actual balance of ${w.customer_id} = Σ ledger`);
    assert.equal(w.current_balance, w.ledger_current, `current balance of ${w.customer_id} = Σ ledger`);
    assert.equal(w.actual_balance, w.last_actual_after);
    assert.equal(w.current_balance, w.last_current_after);
  }
}

describe('exactly-once credit under replayed callbacks', () => {
  test('pgone: 100 identical callbacks in parallel, then 50 more later → one credit', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 50000, gateway_name: 'pgone', method_code: 'SP' });
    const inv = await invoiceRow(t, d.invoice_id);
    assert.equal(inv.total_amount, '50350.00', 'QRIS 0.7% fee on top');
    const form = pgoneForm(t, inv);
    const first = await Promise.all(Array.from({ length: 100 }, () => postPgone(t, form)));
    for (const res of first) {
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { message: 'OK', data: null });
    }
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '50000.00');
    const later = await Promise.all(Array.from({ length: 50 }, () => postPgone(t, form)));
    for (const res of later) assert.equal(res.statusCode, 200);
    // any (wrongly) queued second task has run once the queue is drained
    await queueDrained(t, { queues: ['billing-high'] });
    await assertCreditedOnce(c.id, d.invoice_id, '50000.00');
  });

  test('pgtwo: 100 identical JSON callbacks in parallel, then 50 more later → one credit', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 75000.5, gateway_name: 'pgtwo', method_code: 'BNI' });
    const inv = await invoiceRow(t, d.invoice_id);
    assert.equal(inv.total_amount, '79500.50', 'VA flat fee on top');
    const cb = pgtwoCallback(t, inv);
    const first = await Promise.all(Array.from({ length: 100 }, () => postPgtwo(t, cb)));
    for (const res of first) assert.equal(res.statusCode, 200, res.body);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '75000.50');
    const later = await Promise.all(Array.from({ length: 50 }, () => postPgtwo(t, cb)));
    for (const res of later) assert.equal(res.statusCode, 200);
    await queueDrained(t, { queues: ['billing-high'] });
    await assertCreditedOnce(c.id, d.invoice_id, '75000.50');
  });

  test('a replayed TopupCallbackSuccessTask is a no-op', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 20000 });
    const inv = await invoiceRow(t, d.invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '20000.00');
    const results = await Promise.all(Array.from({ length: 10 }, () => t.container.services.topupCrediting.creditPaidInvoice(d.invoice_id)));
    assert.deepEqual(results, Array(10).fill(false));
    await t.container.queue.runNow('TopupCallbackSuccessTask', { invoiceId: d.invoice_id });
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '20000.00', current_balance: '20000.00' });
    assert.equal((await ledgerOf(t, c.id)).length, 1);
  });

  test('every callback is stored for reconciliation, with its outcome', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 30000 });
    const inv = await invoiceRow(t, d.invoice_id);
    await postPgone(t, pgoneForm(t, inv, '00', { signature: 'bad' }));
    await postPgone(t, pgoneForm(t, inv));
    await postPgone(t, pgoneForm(t, inv));
    const { queryRows } = await import('../../src/platform/db/database.js');
    const { sql } = await import('drizzle-orm');
    const rows = await queryRows<{ outcome: string; signature_valid: boolean; response_status: number; raw_body: string }>(
      t.container.db,
      sql`select outcome, signature_valid, response_status, raw_body from payment_callbacks where claimed_invoice_id = ${d.invoice_id} order by id`,
    );
    assert.deepEqual(
      rows.map((r) => [r.outcome, r.signature_valid, r.response_status]),
      [
        ['invalid_signature', false, 401],
        ['paid', true, 200],
        ['duplicate', true, 200],
      ],
    );
    assert.match(rows[0]!.raw_body, /signature=bad/);
  });
});

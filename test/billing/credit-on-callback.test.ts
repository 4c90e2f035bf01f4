// A paid callback credits the wallet itself before it answers (TopupCreditingService.creditOnPayment),
// completing in that transaction the credit task its statement wrote (due only after
// CREDIT_TASK_DELAY_SECONDS); the task credits instead when the callback's credit could not.
// Exactly once across processes, replays, and workers running the same tasks at the same time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { createCustomer, deposit, invoiceRow, ledgerOf, pgoneForm, postPgone, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ db: 'postgres' });
});
after(() => t.close());

async function creditTasks(invoiceId: string): Promise<{ state: string; due_later: boolean }[]> {
  return queryRows(
    t.container.db,
    sql`select state, start_after > now() + interval '5 seconds' as due_later from pgboss.job
        where name = 'billing-high' and data->'payload'->>'invoiceId' = ${invoiceId}`,
  );
}

async function assertLedgerIsBalances() {
  for (const w of await walletsVsLedger(t)) {
    assert.equal(w.actual_balance, w.ledger_actual, `actual balance of ${w.customer_id} = Σ ledger`);
    assert.equal(w.current_balance, w.ledger_current, `current balance of ${w.customer_id} = Σ ledger`);
  }
}

describe('a paid callback credits the wallet before it answers', () => {
  test('credited when the gateway gets its 200, the credit task completed with it', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 40000 });
    const res = await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)));
    assert.equal(res.statusCode, 200, res.body);
    // no waiting for a worker: the money is there as the callback answers
    assert.deepEqual(await wallet(t, c.id), { actual_balance: '40000.00', current_balance: '40000.00' });
    assert.deepEqual(await creditTasks(d.invoice_id), [{ state: 'completed', due_later: true }]);
    const receipts = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from mail_outbox where template = 'receipt' and text_body like ${`%${d.invoice_id}%`}`);
    assert.equal(receipts[0]!.n, 1);
  });

  test('two processes take callbacks (each several times) while workers run the same credit tasks: every invoice credited exactly once', async () => {
    const second = await buildTestApp({ sameDatabaseAs: t });
    try {
      const customers = await Promise.all(Array.from({ length: 5 }, () => createCustomer(t)));
      const invoices: { id: string; customerId: number; form: string }[] = [];
      for (const c of customers) {
        for (let i = 0; i < 6; i++) {
          const d = await deposit(t, c.id, { amount: 10000 + i * 1000 });
          invoices.push({ id: d.invoice_id, customerId: c.id, form: pgoneForm(t, await invoiceRow(t, d.invoice_id)) });
        }
      }
      // the tasks made due while the callbacks credit: the workers of both processes race them
      const expedite = async () => {
        for (let i = 0; i < 20; i++) {
          await t.container.db.execute(sql`update pgboss.job set start_after = now() where name = 'billing-high' and state = 'created'`);
          await t.container.db.execute(sql`select pg_notify('job_queue_wakeup', 'billing-high')`);
        }
      };
      const sends = invoices.flatMap((inv, i) => [0, 1, 2].map((k) => () => postPgone((i + k) % 2 === 0 ? t : second, inv.form)));
      const answers = await Promise.all([...sends.map((send) => send()), expedite().then(() => undefined)]);
      for (const res of answers) if (res) assert.equal(res.statusCode, 200, res.body);
      await queueDrained(t, { queues: ['billing-high'] });
      const rows = await queryRows<{ id: string; credited: boolean; entries: number; receipts: number }>(
        t.container.db,
        sql`select i.id::text, i.credited_at is not null as credited,
                   (select count(*)::int from balance_logs l where l.type = 'BalanceLogAdd' and l.reference_type = 'topup_invoice' and l.reference_id = i.id::text) as entries,
                   (select count(*)::int from mail_outbox m where m.template = 'receipt' and m.text_body like '%' || i.id::text || '%') as receipts
            from topup_invoices i where i.id = any(${`{${invoices.map((i) => i.id).join(',')}}`}::uuid[])`,
      );
      assert.equal(rows.length, invoices.length);
      for (const r of rows) assert.deepEqual([r.credited, r.entries, r.receipts], [true, 1, 1], r.id);
      for (const c of customers) assert.equal((await ledgerOf(t, c.id)).length, 6);
      await assertLedgerIsBalances();
    } finally {
      await second.close();
    }
  });

  test('a credit that waits too long for a lock is left to its task, made due at once: the worker credits it once the lock is free', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 25000 });
    await t.container.db.execute(sql`insert into wallets (customer_id) values (${c.id}) on conflict do nothing`);
    // another connection holds the wallet's lock (as a long staff adjustment would)
    const holder = new pg.Client({ connectionString: t.database!.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from wallets where customer_id = $1 for update', [c.id]);
      const res = await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await invoiceRow(t, d.invoice_id)).status, 'Paid');
      assert.deepEqual(await wallet(t, c.id), { actual_balance: '0.00', current_balance: '0.00' }, 'not credited while the lock is held');
      // the task no longer waits out its delay: it is due, and a worker is on it
      await eventually(async () => (await creditTasks(d.invoice_id)).some((j) => !j.due_later));
      await holder.query('commit');
    } finally {
      await holder.end();
    }
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '25000.00');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal((await ledgerOf(t, c.id)).filter((e) => e.type === 'BalanceLogAdd').length, 1);
    assert.deepEqual((await creditTasks(d.invoice_id)).map((j) => j.state), ['completed']);
    await assertLedgerIsBalances();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer, deposit } from '../helpers/money.js';

// Money watched in production (docs/api.md, "Money hardening"): reconciliation of wallets against their ledger, and a
// queue de-duplication that pg-boss really enforces.
let t: TestApp;
const logged: Record<string, unknown>[] = [];
before(async () => {
  const log = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  t = await buildTestApp({ worker: false, log });
});
after(() => t.close());

describe('wallet.reconcile', () => {
  test('finds the wallets whose balances differ from their ledger: log, metric, backoffice list', async () => {
    assert.equal(t.container.queue.definition('wallet.reconcile')?.schedule, '7 * * * *');
    const staff = await adminSession(t, { permissions: ['manage_balance', 'view_transactions'] });
    const viewer = await adminSession(t, { permissions: ['view_billing'] });
    const good = await createCustomer(t);
    const bad = await createCustomer(t);
    for (const c of [good, bad]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/backoffice/customer/${c.id}/balance`, headers: { cookie: staff.cookie }, payload: { type: 'ADD', amount: 1000, description: 'x' } });
      assert.equal(res.statusCode, 200);
    }
    await t.container.queue.runNow('wallet.reconcile');
    const list = () => t.app.inject({ method: 'GET', url: '/api/backoffice/billing/wallet-drift', headers: { cookie: staff.cookie } });
    assert.deepEqual((await list()).json().data, []);

    // someone changes a balance behind the ledger's back
    await t.container.db.execute(sql`update wallets set actual_balance = actual_balance + 0.01, current_balance = current_balance - 5 where customer_id = ${bad.id}`);
    await t.container.queue.runNow('wallet.reconcile');
    const res = await list();
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().data.map((d: any) => [d.customer_id, d.actual_balance, d.ledger_actual, d.actual_drift, d.current_balance, d.ledger_current, d.current_drift]),
      [[bad.id, 1000.01, 1000, 0.01, 995, 1000, -5]],
    );
    assert.equal(res.json().meta.total, 1);
    assert.ok(logged.some((l) => l.msg === 'wallet differs from its ledger' && l.customerId === bad.id));
    assert.match((await t.app.inject({ method: 'GET', url: '/metrics' })).body, /^wallet_ledger_drift_wallets 1$/m);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/billing/wallet-drift', headers: { cookie: viewer.cookie } })).statusCode, 403);

    // repaired: the next run clears it
    await t.container.db.execute(sql`update wallets set actual_balance = actual_balance - 0.01, current_balance = current_balance + 5 where customer_id = ${bad.id}`);
    await t.container.queue.runNow('wallet.reconcile');
    assert.deepEqual((await list()).json().data, []);
    assert.match((await t.app.inject({ method: 'GET', url: '/metrics' })).body, /^wallet_ledger_drift_wallets 0$/m);
  });
});

describe('queue de-duplication', () => {
  test('the sweep queues at most one waiting credit job per invoice, however often it runs (pg-boss short policy)', async () => {
    const c = await createCustomer(t);
    const d = await deposit(t, c.id, { amount: 15000 });
    await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = now() - interval '1 day' where id = ${d.invoice_id}`);
    await Promise.all(Array.from({ length: 5 }, () => t.container.services.topupCrediting.requeueUncredited()));
    await t.container.services.topupCrediting.requeueUncredited();
    const [row] = await queryRows<{ n: number }>(
      t.container.db,
      sql`select count(*)::int as n from pgboss.job where name = 'billing-recredit' and data->'payload'->>'invoiceId' = ${d.invoice_id}`,
    );
    assert.equal(row!.n, 1);
    const [queue] = await queryRows<{ policy: string }>(t.container.db, sql`select policy from pgboss.queue where name = 'billing-recredit'`);
    assert.equal(queue!.policy, 'short');
    // a singletonKey where pg-boss would ignore it is refused, not silently accepted
    await assert.rejects(t.container.queue.send(t.container.services.topupCrediting.creditJob, { invoiceId: d.invoice_id }, { singletonKey: 'x' }), /deduplicates nothing/);
    // the job credits once when a worker runs
    await t.container.startWorker();
    await queueDrained(t, { queues: ['billing-recredit'] });
    const [credited] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from balance_logs where reference_id = ${d.invoice_id}`);
    assert.equal(credited!.n, 1);
  });
});

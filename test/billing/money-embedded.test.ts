import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { invoiceRow, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, walletsVsLedger } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ db: 'embedded' });
});
after(() => t.close());

describe('money on the embedded database (PGlite)', () => {
  test('deposit with Idempotency-Key, replayed callbacks, one credit, append-only ledger', async () => {
    const c = await customerSession(t);
    const body = { amount: 20000, method_code: 'SP', gateway_name: 'pgone' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie, 'idempotency-key': 'e1' }, payload: body })),
    );
    for (const a of answers) assert.deepEqual(a.json(), answers[0]!.json());
    const inv = await invoiceRow(t, answers[0]!.json().data.invoice_id);
    const results = await Promise.all(Array.from({ length: 20 }, () => postPgone(t, pgoneForm(t, inv))));
    for (const r of results) assert.equal(r.statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '20000.00', 20_000);

    const two = (await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie }, payload: { amount: 10000, method_code: 'QRIS', gateway_name: 'pgtwo' } })).json().data;
    assert.equal((await postPgtwo(t, pgtwoCallback(t, await invoiceRow(t, two.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '30000.00', 20_000);
    for (const r of await walletsVsLedger(t)) assert.equal(r.current_balance, r.ledger_current);
    await assert.rejects(t.container.db.execute(sql`delete from balance_logs`));
    const inf = (await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: c.cookie } })).json().data;
    assert.equal(inf.current_balance, 30000);
  });
});

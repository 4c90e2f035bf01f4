import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { CALLBACK_BODY_MAX_BYTES } from '../../src/modules/billing/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createCustomer, deposit, pgtwoCallback, postPgtwo } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const stored = (invoiceId: string) =>
  queryRows<{ id: number; raw_body: string; signature_valid: boolean }>(
    t.container.db,
    sql`select id, raw_body, signature_valid from payment_callbacks where claimed_invoice_id = ${invoiceId} order by id`,
  );

describe('recorded payment callbacks are capped in size and pruned', () => {
  test('an unverified callback keeps at most 2 KiB of its body, a verified one up to 16 KiB; the size received is noted', async () => {
    const c = await createCustomer(t);
    const inv = await deposit(t, c.id, { amount: 10000, gateway_name: 'pgtwo', method_code: 'QRIS' });
    const invoice = { id: inv.invoice_id, total_amount: String(inv.total_amount) };
    const padding = 'x'.repeat(40_000);
    const forged = pgtwoCallback(t, invoice, 'PAID', { padding });
    assert.equal((await postPgtwo(t, { body: forged.body, signature: '0'.repeat(64) })).statusCode, 401);
    const real = pgtwoCallback(t, invoice, 'PAID', { padding });
    assert.equal((await postPgtwo(t, real)).statusCode, 200);
    const [unverified, verified] = await stored(inv.invoice_id);
    assert.equal(unverified!.signature_valid, false);
    assert.ok(Buffer.byteLength(unverified!.raw_body) < CALLBACK_BODY_MAX_BYTES.unverified + 100, `${Buffer.byteLength(unverified!.raw_body)} bytes kept`);
    assert.match(unverified!.raw_body, /…\[truncated: \d+ bytes received\]$/);
    assert.equal(verified!.signature_valid, true);
    assert.ok(Buffer.byteLength(verified!.raw_body) < CALLBACK_BODY_MAX_BYTES.verified + 100);
    assert.ok(verified!.raw_body.startsWith(real.body.slice(0, 1000)));
  });

  test('a daily job deletes unverified callbacks after 30 days and verified ones after 400', async () => {
    assert.equal(t.container.queue.definition('billing.prune-callbacks')?.schedule, '45 3 * * *');
    const c = await createCustomer(t);
    const inv = await deposit(t, c.id, { amount: 10000, gateway_name: 'pgtwo', method_code: 'QRIS' });
    const invoice = { id: inv.invoice_id, total_amount: String(inv.total_amount) };
    for (let i = 0; i < 2; i++) await postPgtwo(t, { body: pgtwoCallback(t, invoice).body, signature: 'f'.repeat(64) });
    for (let i = 0; i < 2; i++) await postPgtwo(t, pgtwoCallback(t, invoice));
    const [young, old, keptVerified, oldVerified] = await stored(inv.invoice_id);
    const age = (id: number, days: number) =>
      t.container.db.execute(sql`update payment_callbacks set received_at = ${new Date(t.container.clock.now().getTime() - days * 86_400_000).toISOString()}::timestamptz where id = ${id}`);
    await age(young!.id, 29);
    await age(old!.id, 31);
    await age(keptVerified!.id, 399);
    await age(oldVerified!.id, 401);
    await t.container.queue.runNow('billing.prune-callbacks');
    assert.deepEqual((await stored(inv.invoice_id)).map((r) => r.id), [young!.id, keptVerified!.id]);
  });
});

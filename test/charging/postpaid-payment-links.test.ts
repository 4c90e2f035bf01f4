import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Decimal } from 'decimal.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { invoiceRow, ledgerOf, pgoneForm, postPgone, wallet } from '../helpers/money.js';
import { fund } from '../helpers/compute.js';

/*
 * One invoice, one open payment link. Twenty parallel pays (and bulk pays) of one invoice made
 * twenty pending top-ups of the remainder, all payable after the invoice was PAID; paying three of
 * them put the surplus in the wallet and marked all three payments PAID. Now: the wallet part is
 * taken once, one link exists (a repeat of the same request answers it again, any other is 409
 * PAYMENT_IN_PROGRESS), a link is voided when its invoice is paid another way, money a gateway
 * still sends lands in the wallet as a top-up, and a payment that settled nothing is not PAID.
 */

let t: TestApp;
let staff: { cookie: string };
before(async () => {
  t = await buildTestApp();
  staff = await adminSession(t);
});
after(() => t.close());

type Customer = { id: number; cookie: string };
const api = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object): Promise<LightMyRequestResponse> =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const gateway = { method_code: 'SP', gateway_name: 'pgone' };

async function invoiceOf(c: Customer, subtotal: string, n: number): Promise<string> {
  const start = Date.UTC(2030, n % 12, 1);
  const [inv] = await queryRows<{ id: string }>(
    t.container.db,
    sql`insert into postpaid_invoices (number, customer_id, period_start, period_end, subtotal, currency, issued_at, due_at)
        values (${`PP-LINK-${c.id}-${n}`}, ${c.id}, ${new Date(start).toISOString()}::timestamptz, ${new Date(Date.UTC(2030, (n % 12) + 1, 1)).toISOString()}::timestamptz,
          ${subtotal}::numeric, 'IDR', now(), now() + interval '14 days')
        returning id::text`,
  );
  return inv!.id;
}

const topupsOf = (customerId: number) =>
  queryRows<{ id: string; status: string; amount: string }>(t.container.db, sql`select id::text, status, amount::text from topup_invoices where customer_id = ${customerId} order by created_at`);
const paymentsOf = (customerId: number) =>
  queryRows<{ id: string; status: string; topup_invoice_id: string | null }>(
    t.container.db,
    sql`select id::text, status, topup_invoice_id::text from postpaid_payments where customer_id = ${customerId} order by created_at`,
  );
const invoiceState = async (id: string) =>
  (await queryRows<{ status: string; amount_paid: string }>(t.container.db, sql`select status, amount_paid::text from postpaid_invoices where id = ${id}::uuid`))[0]!;

async function payTopup(topupId: string) {
  const res = await postPgone(t, pgoneForm(t, await invoiceRow(t, topupId)));
  assert.equal(res.statusCode, 200, res.body);
  await eventually(async () => (await queryRows<{ c: unknown }>(t.container.db, sql`select credited_at as c from topup_invoices where id = ${topupId}::uuid`))[0]?.c !== null || undefined);
  await queueDrained(t);
}

describe('one open payment per postpaid invoice', () => {
  test('20 parallel pays and 6 parallel bulk pays of one invoice: the wallet is taken once, one link, every answer that link or 409; paid once', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    await fund(t, c.id, '1000.00');
    const inv = await invoiceOf(c, '50000.00', 1);
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway)),
      ...Array.from({ length: 6 }, () => api(c.cookie, 'POST', '/api/billing/postpaid/payment', { invoice_ids: [inv], ...gateway })),
    ]);
    const ok = answers.filter((a) => a.statusCode === 200);
    assert.ok(ok.length >= 1, answers.map((a) => a.body).join('\n'));
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      assert.equal(a.statusCode, 409, a.body);
      assert.ok(['PAYMENT_IN_PROGRESS', 'CONCURRENT_UPDATE'].includes(a.json().code), a.body);
    }
    const link = ok[0]!.json().data;
    for (const a of ok) {
      assert.equal(a.json().data.payment_id, link.payment_id);
      assert.equal(a.json().data.payment.invoice_id, link.payment.invoice_id);
    }
    assert.equal(link.status, 'PENDING');
    assert.equal(link.wallet_amount, 1000);
    assert.equal(link.remainder, 49000);
    assert.equal((await topupsOf(c.id)).length, 1, 'one top-up of the remainder');
    assert.equal((await paymentsOf(c.id)).length, 1);
    assert.deepEqual((await ledgerOf(t, c.id)).filter((l) => l.type === 'BalanceLogPostpaidPayment').map((l) => l.amount), ['-1000.00']);

    // asked again later: the same link; another set with this invoice: 409
    const again = await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().data.payment_id, link.payment_id);
    assert.equal(again.json().data.payment.payment_url, link.payment.payment_url);
    const other = await invoiceOf(c, '700.00', 2);
    const overlap = await api(c.cookie, 'POST', '/api/billing/postpaid/payment', { invoice_ids: [inv, other], ...gateway });
    assert.equal(overlap.statusCode, 409, overlap.body);
    assert.equal(overlap.json().code, 'PAYMENT_IN_PROGRESS');

    // the gateway pays the one link: the invoice is PAID, the wallet keeps only what the top-up had above the remainder
    await payTopup(link.payment.invoice_id);
    assert.deepEqual(await invoiceState(inv), { status: 'PAID', amount_paid: '50000.00' });
    assert.deepEqual((await paymentsOf(c.id)).map((p) => p.status), ['PAID']);
    assert.equal((await wallet(t, c.id))!.current_balance, '0.00');
    assert.equal((await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway)).statusCode, 409);
  });

  test('staff verify a transfer: the open link is voided (its page refuses), and money a gateway still sends is credited to the wallet as a top-up', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    const inv = await invoiceOf(c, '25000.00', 3);
    const pay = await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway);
    assert.equal(pay.statusCode, 200, pay.body);
    const topupId = pay.json().data.payment.invoice_id as string;
    const verify = await api(staff.cookie, 'PATCH', `/api/backoffice/billing/postpaid/invoices/${inv}/verify`, { paid_note: 'bank transfer 991' });
    assert.equal(verify.statusCode, 200, verify.body);
    assert.deepEqual((await paymentsOf(c.id)).map((p) => p.status), ['CANCELLED']);
    assert.equal((await invoiceRow(t, topupId)).status, 'Expired');
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/pay/pgone/${topupId}` });
    assert.match(page.body, /This invoice is <b>Expired<\/b>/);
    assert.doesNotMatch(page.body, /<form/);
    const press = await t.app.inject({ method: 'POST', url: `/sandbox/pay/pgone/${topupId}`, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(press.statusCode, 409, press.body);

    // a gateway pays the voided link all the same: a visible top-up in the wallet, the invoice untouched
    await payTopup(topupId);
    const ledger = await ledgerOf(t, c.id);
    assert.deepEqual(ledger.map((l) => [l.type, l.amount]), [[BalanceLogType.Add, '25000.00']]);
    assert.equal((await wallet(t, c.id))!.current_balance, '25000.00');
    assert.deepEqual(await invoiceState(inv), { status: 'PAID', amount_paid: '0.00' });
    assert.deepEqual((await paymentsOf(c.id)).map((p) => p.status), ['CANCELLED']);
  });

  test('a link whose invoice was already settled when its money arrives settles nothing: not PAID, the money stays in the wallet', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    const inv = await invoiceOf(c, '30000.00', 4);
    const pay = await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway);
    assert.equal(pay.statusCode, 200, pay.body);
    // the invoice was settled by a path that left the link open (as before this rule: a stale link)
    await t.container.db.execute(sql`update postpaid_invoices set status = 'PAID', amount_paid = subtotal, paid_at = now() where id = ${inv}::uuid`);
    await payTopup(pay.json().data.payment.invoice_id);
    assert.deepEqual((await paymentsOf(c.id)).map((p) => p.status), ['CANCELLED']);
    assert.equal((await wallet(t, c.id))!.current_balance, '30000.00');
    assert.equal((await ledgerOf(t, c.id)).filter((l) => l.type === 'BalanceLogPostpaidPayment').length, 0);
  });

  test('a link that expired (or failed) no longer blocks: the next pay cancels it and makes a new one', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    const inv = await invoiceOf(c, '15000.00', 5);
    const first = (await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway)).json().data;
    await t.container.db.execute(sql`update topup_invoices set status = 'Expired', expired_at = now() where id = ${first.payment.invoice_id}::uuid`);
    const second = await api(c.cookie, 'POST', `/api/billing/postpaid/invoices/${inv}/pay`, gateway);
    assert.equal(second.statusCode, 200, second.body);
    assert.notEqual(second.json().data.payment_id, first.payment_id);
    assert.deepEqual((await paymentsOf(c.id)).map((p) => p.status), ['CANCELLED', 'PENDING']);
    const remainder = new Decimal(second.json().data.remainder);
    assert.equal(remainder.toFixed(2), '15000.00');
  });
});

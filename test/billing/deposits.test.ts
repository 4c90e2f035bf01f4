import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { requestHash } from '../../src/platform/idempotency/idempotency.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { setMaintenance } from '../helpers/settings.js';
import { invoiceRow, pgoneForm, postPgone, wallet } from '../helpers/money.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const api = (cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { cookie, ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });

function pdfText(buf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  writeFileSync(path.join(dir, 'i.pdf'), buf);
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'i.pdf'), '-'], { encoding: 'utf8' });
}

async function invoiceCount(customerId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from topup_invoices where customer_id = ${customerId}`);
  return row!.n;
}

describe('payment methods and minimum', () => {
  test('need a session', async () => {
    for (const url of ['/api/billing/payment-methods', '/api/billing/topup/minimum', '/api/billing/deposit', '/api/billing/deposit/export/pdf']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401, url);
    }
  });

  test('payment methods of both gateways, with their type and fees', async () => {
    const c = await customerSession(t);
    const res = await api(c.cookie, 'GET', '/api/billing/payment-methods');
    assert.equal(res.statusCode, 200);
    const data = res.json().data as any[];
    assert.deepEqual(new Set(data.map((m) => m.gateway_name)), new Set(['pgone', 'pgtwo']));
    assert.deepEqual(new Set(data.map((m) => m.type)), new Set(['VIRTUAL_ACCOUNT', 'QRIS', 'EWALLET', 'CARD']));
    assert.deepEqual(data.find((m) => m.gateway_name === 'pgone' && m.method_code === 'SP'), {
      gateway_name: 'pgone',
      gateway_label: 'PG One',
      method_code: 'SP',
      name: 'QRIS',
      type: 'QRIS',
      fee_flat: 0,
      fee_percent: 0.7,
    });
  });

  test('minimum top-up: platform default, then a per-account override', async () => {
    const c = await customerSession(t);
    const other = await customerSession(t);
    assert.deepEqual((await api(c.cookie, 'GET', '/api/billing/topup/minimum')).json().data, { minimum_amount: 10000, currency: 'IDR' });
    await t.container.services.topups.setMinimum(c.id, 50000);
    assert.deepEqual((await api(c.cookie, 'GET', '/api/billing/topup/minimum')).json().data, { minimum_amount: 50000, currency: 'IDR' });
    assert.equal((await api(other.cookie, 'GET', '/api/billing/topup/minimum')).json().data.minimum_amount, 10000);
    const res = await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 20000, method_code: 'SP', gateway_name: 'pgone' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'AMOUNT_BELOW_MINIMUM');
    assert.equal((await api(other.cookie, 'POST', '/api/billing/deposit', { amount: 20000, method_code: 'SP', gateway_name: 'pgone' })).statusCode, 200);
  });
});

describe('POST /api/billing/deposit', () => {
  test('creates a Pending invoice with the actions of its method', async () => {
    const c = await customerSession(t);
    const va = await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 100000, method_code: 'BC', gateway_name: 'pgone' });
    assert.equal(va.statusCode, 200, va.body);
    const d = va.json().data;
    assert.match(d.invoice_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(d.status, 'Pending');
    assert.equal(d.payment_url, `${t.container.config.publicUrl}/sandbox/pay/pgone/${d.invoice_id}`);
    assert.match(d.actions.va_number, /^8808\d{12}$/);
    assert.equal(d.actions.qr_string, null);
    assert.equal(d.actions.redirect_url, null);
    assert.deepEqual([d.amount, d.fee, d.total_amount, d.currency], [100000, 4000, 104000, 'IDR']);
    const row = await invoiceRow(t, d.invoice_id);
    assert.deepEqual([row.status, row.amount, row.total_amount, row.customer_id], ['Pending', '100000.00', '104000.00', c.id]);

    const qr = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 12345.67, method_code: 'QRIS', gateway_name: 'pgtwo', coupon_code: null })).json().data;
    assert.equal(typeof qr.actions.qr_string, 'string');
    assert.equal(qr.actions.va_number, null);
    assert.deepEqual([qr.amount, qr.fee, qr.total_amount], [12345.67, 86.42, 12432.09]);
    const card = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 50000, method_code: 'CREDIT_CARD', gateway_name: 'pgtwo' })).json().data;
    assert.equal(card.actions.redirect_url, card.payment_url);
  });

  test('bad requests are 400 with a code and create nothing', async () => {
    const c = await customerSession(t);
    const cases: [unknown, string][] = [
      [{ amount: 10000, method_code: 'XX', gateway_name: 'pgone' }, 'INVALID_PAYMENT_METHOD'],
      [{ amount: 10000, method_code: 'SP', gateway_name: 'pgthree' }, 'INVALID_PAYMENT_METHOD'],
      [{ amount: 10000, method_code: 'QRIS', gateway_name: 'pgone' }, 'INVALID_PAYMENT_METHOD'],
      [{ amount: 9999.99, method_code: 'SP', gateway_name: 'pgone' }, 'AMOUNT_BELOW_MINIMUM'],
      [{ amount: 1_000_000_000.01, method_code: 'SP', gateway_name: 'pgone' }, 'VALIDATION_FAILED'], // above the bound of every money input
      [{ amount: 10000.001, method_code: 'SP', gateway_name: 'pgone' }, 'VALIDATION_FAILED'],
      [{ amount: -5, method_code: 'SP', gateway_name: 'pgone' }, 'VALIDATION_FAILED'],
      [{ amount: '10000', method_code: 'SP', gateway_name: 'pgone', extra: 1 }, 'VALIDATION_FAILED'],
      [{ method_code: 'SP', gateway_name: 'pgone' }, 'VALIDATION_FAILED'],
      [{ amount: 10000, method_code: 'SP', gateway_name: 'pgone', coupon_code: 'NOPE' }, 'COUPON_NOT_FOUND'],
    ];
    for (const [body, code] of cases) {
      const res = await api(c.cookie, 'POST', '/api/billing/deposit', body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().code, code, JSON.stringify(body));
    }
    assert.equal(await invoiceCount(c.id), 0);
  });

  test('Idempotency-Key: 20 parallel requests → one invoice, 20 identical answers; another body → 409', async () => {
    const c = await customerSession(t);
    const body = { amount: 25000, method_code: 'OV', gateway_name: 'pgone' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'order-42' })),
    );
    for (const res of responses) assert.equal(res.statusCode, 200, res.body);
    const bodies = responses.map((r) => r.json());
    for (const b of bodies) assert.deepEqual(b, bodies[0]);
    assert.equal(await invoiceCount(c.id), 1);
    // later repeat: the same answer, even though the invoice has moved on since
    const inv = await invoiceRow(t, bodies[0].data.invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
    const again = await api(c.cookie, 'POST', '/api/billing/deposit', { gateway_name: 'pgone', amount: 25000, method_code: 'OV' }, { 'idempotency-key': 'order-42' });
    assert.deepEqual(again.json(), bodies[0]);
    const conflict = await api(c.cookie, 'POST', '/api/billing/deposit', { ...body, amount: 26000 }, { 'idempotency-key': 'order-42' });
    assert.equal(conflict.statusCode, 409);
    assert.equal(conflict.json().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await invoiceCount(c.id), 1);
    // keys are per customer
    const other = await customerSession(t);
    assert.equal((await api(other.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'order-42' })).statusCode, 200);
    assert.equal(await invoiceCount(other.id), 1);
    // a failed first attempt stores nothing: a retry with the same key works
    const bad = await api(c.cookie, 'POST', '/api/billing/deposit', { ...body, amount: 1 }, { 'idempotency-key': 'k2' });
    assert.equal(bad.statusCode, 400);
    assert.equal((await api(c.cookie, 'POST', '/api/billing/deposit', { ...body, amount: 1 }, { 'idempotency-key': 'k2' })).statusCode, 400);
    assert.equal((await api(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'x'.repeat(300) })).statusCode, 400);
  });

  test('Idempotency-Key: a claim left in progress by a crashed request is taken over after 5 minutes', async () => {
    const c = await customerSession(t);
    const body = { amount: 12000, method_code: 'SP', gateway_name: 'pgone' };
    const first = await api(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'crashed' });
    assert.equal(first.statusCode, 200);
    // as if the process died between the claim and the answer
    const stall = (age: string) =>
      t.container.db.execute(sql`update idempotency_keys set state = 'in_progress', response_status = null, response_body = null, completed_at = null,
        created_at = now() - ${age}::interval where scope = 'billing.deposit' and owner = ${`customer:${c.id}`} and key = 'crashed'`);
    await stall('4 minutes');
    const fresh = await t.container.db.transaction((tx) =>
      t.container.idempotency.claim(tx, { scope: 'billing.deposit', owner: `customer:${c.id}`, key: 'crashed', requestHash: requestHash(body) }),
    );
    assert.equal(fresh.kind, 'in_progress', 'a younger claim may still be running');
    await stall('6 minutes');
    const retry = await api(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'crashed' });
    assert.equal(retry.statusCode, 200, retry.body);
    assert.notEqual(retry.json().data.invoice_id, first.json().data.invoice_id);
    const replay = await api(c.cookie, 'POST', '/api/billing/deposit', body, { 'idempotency-key': 'crashed' });
    assert.deepEqual(replay.json(), retry.json());
  });
});

describe('deposit list, detail, export', () => {
  test('list is paginated, newest first; detail; other customers get 404', async () => {
    const c = await customerSession(t);
    const other = await customerSession(t);
    const ids: string[] = [];
    for (const amount of [10000, 20000, 30000]) {
      ids.push((await api(c.cookie, 'POST', '/api/billing/deposit', { amount, method_code: 'SP', gateway_name: 'pgone' })).json().data.invoice_id);
    }
    const page1 = (await api(c.cookie, 'GET', '/api/billing/deposit?page=1&limit=2')).json();
    assert.deepEqual(page1.meta, { page: 1, limit: 2, total: 3, total_pages: 2 });
    assert.equal(page1.data.length, 2);
    const page2 = (await api(c.cookie, 'GET', '/api/billing/deposit?page=2&limit=2')).json();
    assert.deepEqual([...page1.data, ...page2.data].map((d: any) => d.amount).sort(), [10000, 20000, 30000]);
    assert.equal((await api(c.cookie, 'GET', '/api/billing/deposit?limit=0')).statusCode, 400);

    const detail = await api(c.cookie, 'GET', `/api/billing/deposit/${ids[1]}`);
    assert.equal(detail.statusCode, 200);
    assert.equal(detail.json().data.invoice_id, ids[1]);
    assert.equal(detail.json().data.status, 'Pending');
    assert.equal(detail.json().data.paid_at, null);
    assert.equal((await api(other.cookie, 'GET', `/api/billing/deposit/${ids[1]}`)).statusCode, 404);
    assert.equal((await api(c.cookie, 'GET', '/api/billing/deposit/not-a-uuid')).statusCode, 404);
    assert.deepEqual((await api(other.cookie, 'GET', '/api/billing/deposit')).json().data, []);
  });

  test('a paid deposit shows Paid, the wallet on /api/inf, and a receipt mail is queued', async () => {
    const c = await customerSession(t);
    const d = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 40000, method_code: 'SP', gateway_name: 'pgone' })).json().data;
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '40000.00');
    const detail = (await api(c.cookie, 'GET', `/api/billing/deposit/${d.invoice_id}`)).json().data;
    assert.equal(detail.status, 'Paid');
    assert.ok(detail.paid_at && detail.credited_at);
    const inf = (await api(c.cookie, 'GET', '/api/inf')).json().data;
    assert.equal(inf.actual_balance, 40000);
    assert.equal(inf.current_balance, 40000);
    const mails = await queryRows<{ subject: string; text_body: string }>(
      t.container.db,
      sql`select subject, text_body from mail_outbox where to_address = ${c.email} and template = 'receipt'`,
    );
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.subject, new RegExp(d.invoice_id));
    assert.match(mails[0]!.text_body, /40000\.00/);
  });

  test('export as PDF: a real PDF listing the deposits', async () => {
    const c = await customerSession(t);
    const ids: string[] = [];
    for (const amount of [15000, 27500.5]) {
      ids.push((await api(c.cookie, 'POST', '/api/billing/deposit', { amount, method_code: 'BNI', gateway_name: 'pgtwo' })).json().data.invoice_id);
    }
    const res = await api(c.cookie, 'GET', '/api/billing/deposit/export/pdf');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(res.headers['content-disposition'] as string, /^attachment; filename="deposits_\d{4}-\d{2}-\d{2}\.pdf"$/);
    assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
    writeFileSync(path.join(dir, 'd.pdf'), res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'd.pdf'), '-'], { encoding: 'utf8' });
    assert.match(text, /Deposit history/);
    assert.match(text, new RegExp(c.email.replace(/[.]/g, '\\.')));
    for (const id of ids) assert.match(text, new RegExp(id));
    assert.match(text, /27500\.50/);
    assert.match(text, /15000\.00/);
    assert.match(text, /Deposits: 2/);
  });

  test('the notifications of a top-up speak in words: the method by name, money as people write it, a readable date, no API paths', async () => {
    const c = await customerSession(t);
    const d = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 500000, method_code: 'BC', gateway_name: 'pgone' })).json().data;
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.current_balance === '500000.00');
    const notes = (await api(c.cookie, 'GET', '/api/notifications?limit=100')).json().data as { kind: string; body: string }[];
    const created = notes.find((n) => n.kind === 'INVOICE_CREATED')!;
    const credited = notes.find((n) => n.kind === 'TOPUP_CREDITED')!;
    assert.match(created.body, /^Top-up invoice of IDR 504,000 by BCA Virtual Account via PG One; pay before \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC\.$/);
    assert.equal(credited.body, 'IDR 500,000 from your top-up by BCA Virtual Account via PG One is in your wallet. Its receipt is under Billing, in your top-ups.');
    for (const n of [created, credited]) {
      assert.doesNotMatch(n.body, /\d{4}-\d{2}-\d{2}T|\/api\/|GET |pgone|\d\.00\b/);
    }
  });

  test('every top-up invoice has its PDF by id: an invoice while Pending, a receipt once Paid (status, method, coupon bonus); staff export it too', async () => {
    const c = await customerSession(t);
    const other = await customerSession(t);
    await t.container.services.coupons.create({ code: `RCPT${c.id}`, type: 'PERCENT', value: 10, max_bonus: 5000 });
    const d = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 40000, method_code: 'SP', gateway_name: 'pgone', coupon_code: `rcpt${c.id}` })).json().data;
    assert.deepEqual([d.fee, d.total_amount, d.bonus_amount], [280, 40280, 4000]);

    const pending = await api(c.cookie, 'GET', `/api/billing/invoice/${d.invoice_id}/download`);
    assert.equal(pending.statusCode, 200, pending.body);
    assert.equal(pending.headers['content-type'], 'application/pdf');
    assert.equal(pending.headers['content-disposition'], `attachment; filename="invoice_${d.invoice_id}.pdf"`);
    const due = pdfText(pending.rawPayload);
    assert.match(due, /Top-up invoice/);
    assert.match(due, new RegExp(d.invoice_id));
    assert.match(due, /Status: Pending/);
    assert.match(due, /Amount due: IDR 40280\.00/);

    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.current_balance === '44000.00');
    const paid = await api(c.cookie, 'GET', `/api/billing/invoice/${d.invoice_id}/download`);
    assert.equal(paid.statusCode, 200);
    const receipt = pdfText(paid.rawPayload);
    assert.match(receipt, /Receipt/);
    assert.match(receipt, new RegExp(d.invoice_id));
    assert.match(receipt, /Status: Paid/);
    assert.match(receipt, /Payment method: QRIS via PG One/);
    assert.doesNotMatch(receipt, /pgone/);
    assert.match(receipt, /Wallet top-up\s+40000\.00/);
    assert.match(receipt, /Payment fee\s+280\.00/);
    assert.match(receipt, new RegExp(`Coupon RCPT${c.id} bonus \\(credited\\)\\s+4000\\.00`));
    assert.match(receipt, /Total paid: IDR 40280\.00/);
    assert.match(receipt, /Credited to the wallet: IDR 40000\.00 and IDR 4000\.00 bonus credit/);
    assert.match(receipt, new RegExp(c.email.replace(/[.]/g, '\\.')));

    // another customer's invoice, and an unknown one, are 404
    assert.equal((await api(other.cookie, 'GET', `/api/billing/invoice/${d.invoice_id}/download`)).statusCode, 404);
    assert.equal((await api(c.cookie, 'GET', '/api/billing/invoice/00000000-0000-4000-8000-000000000000/download')).statusCode, 404);

    // staff: the same document as admin_invoice_YYYY-MM.pdf (the month the invoice was made)
    const staff = await adminSession(t, { permissions: ['view_billing'] });
    const exported = await api(staff.cookie, 'GET', `/api/backoffice/billing/export-invoice?id=${d.invoice_id}`);
    assert.equal(exported.statusCode, 200, exported.body);
    const month = String(d.created_at).slice(0, 7);
    assert.equal(exported.headers['content-disposition'], `attachment; filename="admin_invoice_${month}.pdf"`);
    const staffText = pdfText(exported.rawPayload);
    assert.match(staffText, /Receipt/);
    assert.match(staffText, new RegExp(d.invoice_id));
  });
});

describe('maintenance mode', () => {
  test('callbacks still work; deposits answer 503', async () => {
    const c = await customerSession(t);
    const d = (await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 10000, method_code: 'SP', gateway_name: 'pgone' })).json().data;
    await setMaintenance(t, true);
    try {
      const res = await api(c.cookie, 'POST', '/api/billing/deposit', { amount: 10000, method_code: 'SP', gateway_name: 'pgone' });
      assert.equal(res.statusCode, 503);
      assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, d.invoice_id)))).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/payment/redirect/pgone?status=success' })).statusCode, 200);
    } finally {
      await setMaintenance(t, false);
    }
  });
});

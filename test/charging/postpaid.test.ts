import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { invoiceRow, ledgerOf, pgoneForm, postPgone, wallet } from '../helpers/money.js';
import { insertPrice, one } from './helpers.js';

const DAY = 86_400_000;
const now0 = new Date();
// the calendar month before the current one
const START = Date.UTC(now0.getUTCFullYear(), now0.getUTCMonth() - 1, 1);
const END = Date.UTC(now0.getUTCFullYear(), now0.getUTCMonth(), 1);
const PERIOD = new Date(START).toISOString().slice(0, 7);
const clock = new ManualClock(new Date(START));
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock });
});
after(() => t.close());

function pdfText(buf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  writeFileSync(path.join(dir, 'i.pdf'), buf);
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'i.pdf'), '-'], { encoding: 'utf8' });
}

async function credit(customerId: number, amount: string, ref: string) {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.credit(tx, { customerId, type: BalanceLogType.AdjustAdd, amount, part: 'actual', referenceType: 'test', referenceId: ref, description: 'test' }),
  );
}

async function openMeters(customerId: number) {
  const m = t.container.services.metering;
  await m.open({ customerId, resourceType: 'vm', resourceId: `vm-${customerId}`, description: `VM ${customerId}`, priceKey: 'tier:931', locationId: 1, at: new Date(START) });
  const diskFrom = START + 3 * DAY + 17 * 60_000 + 3_000;
  clock.set(new Date(diskFrom));
  await m.open({ customerId, resourceType: 'block_storage', resourceId: `disk-${customerId}`, description: 'Disk 10 GB', priceKey: 'storage_tier:931', locationId: 1, quantity: '10', at: new Date(diskFrom) });
  clock.set(new Date(START));
}

describe('postpaid invoices', () => {
  const customers: { id: number; email: string; password: string; cookie: string }[] = [];
  let prepaid: { id: number };
  let api: (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

  test('on the 1st: one invoice per customer with a line per resource, equal to a prepaid month of the same usage', async () => {
    api = (cookie, method, url, payload, headers = {}) => t.app.inject({ method, url, headers: { cookie, ...headers }, ...(payload ? { payload } : {}) });
    await insertPrice(t, 'tier:931', '73000', new Date(START - DAY).toISOString()); // 100.000000 an hour
    await insertPrice(t, 'storage_tier:931', '1234.56', new Date(START - DAY).toISOString());
    for (let i = 0; i < 3; i++) customers.push(await customerSession(t, { billingType: 'POSTPAID' }));
    prepaid = await customerSession(t);
    await credit(prepaid.id, '500000.00', `pp-${prepaid.id}`);
    for (const c of [...customers, prepaid]) await openMeters(c.id);

    clock.set(new Date(END + 40 * 60_000));
    assert.equal(await t.container.services.postpaid.issueMonthly(), 3);
    assert.equal(await t.container.services.postpaid.issueMonthly(), 0);

    const prepaidCharged = (await ledgerOf(t, prepaid.id))
      .filter((l) => l.type === BalanceLogType.Charge)
      .reduce((s, l) => s.minus(l.amount), new Decimal(0));
    for (const c of customers) c.cookie = await loginCustomer(t, c.email, c.password);
    const c0 = customers[0]!;
    const list = await api(c0.cookie, 'GET', '/api/billing/postpaid/invoices');
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.total, 1);
    const inv = list.json().data[0];
    assert.equal(inv.status, 'UNPAID');
    assert.equal(inv.period_start, new Date(START).toISOString());
    assert.equal(inv.period_end, new Date(END).toISOString());
    assert.equal(new Decimal(inv.subtotal).toFixed(2), prepaidCharged.toFixed(2));
    assert.equal(new Date(inv.due_at).getTime() - new Date(inv.issued_at).getTime(), 14 * DAY);
    const detail = (await api(c0.cookie, 'GET', `/api/billing/postpaid/invoices/${inv.invoice_id}`)).json().data;
    assert.equal(detail.lines.length, 2);
    const hours = (END - START) / 3_600_000;
    assert.equal(detail.lines[0].hours, hours);
    assert.equal(detail.lines[0].amount, hours * 100);
    assert.equal(detail.lines[1].period_start, new Date(START + 3 * DAY + 17 * 60_000 + 3_000).toISOString());
    assert.equal(new Decimal(detail.lines[0].amount).plus(detail.lines[1].amount).toFixed(2), new Decimal(inv.subtotal).toFixed(2));
    // the exact usage and the invoice agree to the cent
    const usage = await one<{ s: string }>(t, sql`select sum(amount)::text as s from usage_records where customer_id = ${c0.id}`);
    assert.ok(new Decimal(usage.s).minus(inv.subtotal).abs().lt('0.01'));
    // another customer's invoice is a 404
    assert.equal((await api(customers[1]!.cookie, 'GET', `/api/billing/postpaid/invoices/${inv.invoice_id}`)).statusCode, 404);

    const summary = (await api(c0.cookie, 'GET', '/api/billing/postpaid/summary')).json().data;
    assert.equal(summary.total_unpaid, inv.subtotal);
    assert.equal(summary.unpaid_count, 1);
    const unpaid = (await api(c0.cookie, 'GET', '/api/billing/postpaid/invoices/unpaid')).json().data;
    assert.deepEqual(unpaid.map((i: { invoice_id: string }) => i.invoice_id), [inv.invoice_id]);

    const pdf = await api(c0.cookie, 'GET', `/api/billing/invoice/${inv.invoice_id}/download`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    const text = pdfText(pdf.rawPayload);
    assert.match(text, new RegExp(inv.number));
    assert.match(text, new RegExp(`Total: IDR ${new Decimal(inv.subtotal).toFixed(2)}`));
    assert.match(text, /Disk 10 GB/);
  });

  test('pay: the wallet first, a split payment link for the rest, PAID when the sandbox callback lands (Idempotency-Key)', async () => {
    const c0 = customers[0]!;
    await credit(c0.id, '1000.00', `w-${c0.id}`);
    const inv = (await api(c0.cookie, 'GET', '/api/billing/postpaid/invoices/unpaid')).json().data[0];
    const body = { method_code: 'SP', gateway_name: 'pgone' };
    const first = await api(c0.cookie, 'POST', `/api/billing/postpaid/invoices/${inv.invoice_id}/pay`, body, { 'idempotency-key': 'pay-1' });
    assert.equal(first.statusCode, 200, first.body);
    const a = first.json().data;
    assert.equal(a.status, 'PENDING');
    assert.equal(a.wallet_amount, 1000);
    assert.equal(new Decimal(a.remainder).toFixed(2), new Decimal(inv.subtotal).minus(1000).toFixed(2));
    assert.ok(a.payment.payment_url);
    assert.equal(a.invoices[0].amount_paid, 1000);
    assert.equal(a.invoices[0].status, 'UNPAID');
    const again = await api(c0.cookie, 'POST', `/api/billing/postpaid/invoices/${inv.invoice_id}/pay`, body, { 'idempotency-key': 'pay-1' });
    assert.equal(again.json().data.payment_id, a.payment_id);
    assert.equal((await wallet(t, c0.id))!.current_balance, '0.00');

    const res = await postPgone(t, pgoneForm(t, await invoiceRow(t, a.payment.invoice_id)));
    assert.equal(res.statusCode, 200, res.body);
    await eventually(async () => (await api(c0.cookie, 'GET', `/api/billing/postpaid/invoices/${inv.invoice_id}`)).json().data.status === 'PAID' || undefined);
    const paid = (await api(c0.cookie, 'GET', `/api/billing/postpaid/invoices/${inv.invoice_id}`)).json().data;
    assert.equal(paid.amount_due, 0);
    // the top-up was at least the minimum; what the invoice did not need stays in the wallet
    const topup = Decimal.max(a.remainder, 10000);
    assert.equal((await wallet(t, c0.id))!.current_balance, topup.minus(a.remainder).toFixed(2));
    // paying a paid invoice is a 409
    assert.equal((await api(c0.cookie, 'POST', `/api/billing/postpaid/invoices/${inv.invoice_id}/pay`, {})).statusCode, 409);
  });

  test('backoffice: list with filters, export as admin_invoice_YYYY-MM.pdf, verify with paid_note', async () => {
    const boss = await adminSession(t);
    const list = await api(boss.cookie, 'GET', `/api/backoffice/billing/postpaid/invoices?period=${PERIOD}&status=UNPAID`);
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.total, 2);
    const inv = list.json().data.find((i: { customer_id: number }) => i.customer_id === customers[1]!.id);
    const pdf = await api(boss.cookie, 'GET', `/api/backoffice/billing/export-invoice?id=${inv.invoice_id}`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-disposition'], `attachment; filename="admin_invoice_${PERIOD}.pdf"`);
    assert.match(pdfText(pdf.rawPayload), new RegExp(inv.number));
    const v = await api(boss.cookie, 'PATCH', `/api/backoffice/billing/postpaid/invoices/${inv.invoice_id}/verify`, { paid_note: 'BCA transfer 12345' });
    assert.equal(v.statusCode, 200, v.body);
    assert.equal(v.json().data.status, 'PAID');
    assert.equal(v.json().data.paid_note, 'BCA transfer 12345');
    assert.equal((await api(boss.cookie, 'PATCH', `/api/backoffice/billing/postpaid/invoices/${inv.invoice_id}/verify`, { paid_note: 'again' })).statusCode, 409);
    await queueDrained(t);
    const mails = await queryRows<{ template: string }>(t.container.db, sql`select template from mail_outbox where to_address = ${customers[1]!.email} order by id`);
    assert.deepEqual(mails.map((m) => m.template), ['postpaid_invoice', 'receipt']);
    const notes = await queryRows<{ kind: string; reference_id: string }>(t.container.db, sql`select kind, reference_id from notifications where customer_id = ${customers[1]!.id} order by id`);
    assert.deepEqual(notes, [
      { kind: 'INVOICE_CREATED', reference_id: inv.invoice_id },
      { kind: 'INVOICE_PAID', reference_id: inv.invoice_id },
    ]);
  });

  test('overdue after the due date, suspended after the grace, resumed by a bulk payment', async () => {
    const c2 = customers[2]!;
    const calls: string[] = [];
    Object.assign(t.container.flows.customerSuspension, { suspendCustomer: async (id: number, r: string) => void calls.push(`suspend ${id} ${r}`), resumeCustomer: async (id: number) => void calls.push(`resume ${id}`) });
    const inv = (await queryRows<{ id: string; due_at: Date }>(t.container.db, sql`select id::text, due_at from postpaid_invoices where customer_id = ${c2.id}`))[0]!;
    clock.set(new Date(new Date(inv.due_at).getTime() - DAY));
    assert.equal((await t.container.services.postpaid.overdueSweep()).reminders, 1);
    clock.set(new Date(new Date(inv.due_at).getTime() + 60_000));
    assert.deepEqual(await t.container.services.postpaid.overdueSweep(), { overdue: 1, reminders: 0, suspended: 0 });
    clock.set(new Date(new Date(inv.due_at).getTime() + 7 * DAY + 60_000));
    assert.deepEqual(await t.container.services.postpaid.overdueSweep(), { overdue: 0, reminders: 0, suspended: 1 });
    await queueDrained(t);
    assert.deepEqual(calls, [`suspend ${c2.id} POSTPAID_OVERDUE`]);
    const cookie = await loginCustomer(t, c2.email, c2.password);
    assert.equal((await api(cookie, 'GET', '/api/inf')).json().data.suspend_reason, 'POSTPAID_OVERDUE');
    // the wallet covers it: one bulk payment, no gateway
    await credit(c2.id, '100000.00', `w-${c2.id}`);
    const pay = await api(cookie, 'POST', '/api/billing/postpaid/payment', { invoice_ids: [inv.id], method_code: 'SP', gateway_name: 'pgone' });
    assert.equal(pay.statusCode, 200, pay.body);
    assert.equal(pay.json().data.status, 'PAID');
    assert.equal(pay.json().data.payment, null);
    await queueDrained(t);
    assert.deepEqual(calls, [`suspend ${c2.id} POSTPAID_OVERDUE`, `resume ${c2.id}`]);
    assert.equal((await api(cookie, 'GET', '/api/inf')).json().data.suspended_at, null);
    const mails = await queryRows<{ template: string }>(t.container.db, sql`select template from mail_outbox where to_address = ${c2.email} order by id`);
    assert.deepEqual(mails.map((m) => m.template), ['postpaid_invoice', 'postpaid_reminder', 'postpaid_overdue', 'billing_suspended', 'receipt']);
    // every one of those mails has its in-app notification, and the resumption one too (LOW_BALANCE:
    // the payment took the wallet from 100,000 below the wallet's 50,000 threshold)
    const notes = (await api(cookie, 'GET', '/api/notifications?limit=100')).json().data.reverse();
    assert.deepEqual(notes.map((n: { kind: string }) => n.kind), ['INVOICE_CREATED', 'INVOICE_DUE_SOON', 'INVOICE_OVERDUE', 'SUSPENDED', 'LOW_BALANCE', 'INVOICE_PAID', 'RESUMED']);
    for (const n of notes.filter((x: { reference_type: string }) => x.reference_type === 'postpaid_invoice')) assert.equal(n.reference_id, inv.id);
    // dates and money in words: "due 14 Dec 2026", "IDR 1,234", never an ISO date or "IDR 1234.00"
    for (const n of notes.filter((x: { kind: string }) => x.kind.startsWith('INVOICE_'))) {
      assert.doesNotMatch(`${n.title} ${n.body}`.replace(/\b[A-Z]+-\d+-\d+\b/g, 'N'), /\d{4}-\d{2}(-\d{2})?|\d{4,}\.\d{2}\b/, `${n.kind}: ${n.body}`);
    }
    assert.match(notes[0].body, /^Your postpaid invoice for [A-Z][a-z]+ \d{4} is IDR [\d,]+(\.\d{2})?, due \d{1,2} [A-Z][a-z]{2} \d{4}\.$/);
  });

  test('parallel payments of one invoice take the wallet once', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    await credit(c.id, '5000.00', `par-${c.id}`);
    const [inv] = await queryRows<{ id: string }>(
      t.container.db,
      sql`insert into postpaid_invoices (number, customer_id, period_start, period_end, subtotal, currency, issued_at, due_at)
          values (${`PP-TEST-${c.id}`}, ${c.id}, ${new Date(START).toISOString()}::timestamptz, ${new Date(END).toISOString()}::timestamptz, 1234.56, 'IDR', now(), now() + interval '14 days')
          returning id::text`,
    );
    const cookie = await loginCustomer(t, c.email, c.password);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api(cookie, 'POST', `/api/billing/postpaid/invoices/${inv!.id}/pay`, {})));
    const codes = answers.map((a) => a.statusCode).sort();
    assert.equal(codes.filter((x) => x === 200).length, 1, JSON.stringify(answers.map((a) => a.body)));
    assert.ok(codes.every((x) => x === 200 || x === 409));
    assert.equal((await wallet(t, c.id))!.current_balance, '3765.44');
    const entries = (await ledgerOf(t, c.id)).filter((l) => l.type === 'BalanceLogPostpaidPayment');
    assert.deepEqual(entries.map((e) => e.amount), ['-1234.56']);
  });
});

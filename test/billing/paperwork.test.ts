import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { deposit, invoiceRow, pgoneForm, postPgone } from '../helpers/money.js';
import { insertPrice } from '../charging/helpers.js';

// Receipts and invoices name who issued them (the company details staff keep in the settings) and
// who they are made out to (with the business name and tax number when the customer has them).

const now0 = new Date();
const START = Date.UTC(now0.getUTCFullYear(), now0.getUTCMonth() - 1, 1);
const END = Date.UTC(now0.getUTCFullYear(), now0.getUTCMonth(), 1);
const clock = new ManualClock(new Date(START + 3_600_000));
let t: TestApp;
let boss: { cookie: string };
before(async () => {
  t = await buildTestApp({ clock });
  boss = await adminSession(t);
});
after(() => t.close());

function pdfText(buf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  writeFileSync(path.join(dir, 'd.pdf'), buf);
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'd.pdf'), '-'], { encoding: 'utf8' });
}

const company = { legal_name: 'PT Awan Nusantara Teknologi', address: 'Jl. Sudirman Kav. 52\nJakarta Selatan 12190\nIndonesia', tax_number: '01.234.567.8-901.000' };

async function pdfOf(cookie: string, url: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/pdf');
  return pdfText(res.rawPayload);
}

function assertIssuer(text: string) {
  assert.match(text, /Issued by/);
  assert.match(text, /PT Awan Nusantara Teknologi/);
  assert.match(text, /Jl\. Sudirman Kav\. 52/);
  assert.match(text, /Jakarta Selatan 12190/);
  assert.match(text, /Tax number: 01\.234\.567\.8-901\.000/);
}

describe('company details in the settings', () => {
  test('staff with manage_settings set them (all three fields, audited); view_settings reads; others get 403', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/api/backoffice/setting/company', headers: { cookie: boss.cookie } });
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.json().data, { legal_name: null, address: null, tax_number: null, updated_at: null });

    const put = (payload: object, cookie = boss.cookie) => t.app.inject({ method: 'PUT', url: '/api/backoffice/setting/company', headers: { cookie }, payload });
    for (const bad of [
      { legal_name: 'X', address: 'Y' },
      { ...company, legal_name: '   ' },
      { ...company, address: 'a\nb\nc\nd\ne\nf\ng' },
      { ...company, tax_number: 'NPWP; drop' },
      { ...company, extra: 1 },
    ]) {
      const res = await put(bad);
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/setting/company', headers: { cookie: boss.cookie } })).json().data.legal_name, null, 'a refused change changes nothing');

    const support = await adminSession(t, { role: 'Admin Support' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/setting/company', headers: { cookie: support.cookie } })).statusCode, 403);
    assert.equal((await put(company, support.cookie)).statusCode, 403);
    const reader = await adminSession(t, { permissions: ['view_settings'] });
    assert.equal((await put(company, reader.cookie)).statusCode, 403);

    const saved = await put({ ...company, address: `  ${company.address.replace(/\n/g, '\n\n  ')}  ` });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(saved.json().data.address, company.address, 'lines trimmed, empty ones dropped');
    assert.equal(saved.json().data.tax_number, company.tax_number);
    const read = await t.app.inject({ method: 'GET', url: '/api/backoffice/setting/company', headers: { cookie: reader.cookie } });
    assert.equal(read.json().data.legal_name, company.legal_name);
    const [audit] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where action = 'settings.company_updated'`);
    assert.equal(audit!.n, 1);
  });
});

describe('every receipt and invoice PDF carries the issuer and the customer', () => {
  test('top-up receipt (customer and staff download) and deposit history: issuer, business name and tax number', async () => {
    const c = await customerSession(t, {
      accountType: 'B',
      firstName: 'Sari',
      lastName: 'Wijaya',
      businessProfile: { name: 'CV Maju Jaya Digital', tax_number: '09.876.543.2-109.000' },
    });
    const d = await deposit(t, c.id, { amount: 500000, method_code: 'SP' });
    const inv = await invoiceRow(t, d.invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
    await queueDrained(t, { queues: ['billing-high'] });

    for (const [cookie, url] of [
      [c.cookie, `/api/billing/invoice/${inv.id}/download`],
      [boss.cookie, `/api/backoffice/billing/export-invoice?id=${inv.id}`],
      [c.cookie, '/api/billing/deposit/export/pdf'],
    ] as const) {
      const text = await pdfOf(cookie, url);
      assertIssuer(text);
      assert.match(text, /Billed to/);
      assert.match(text, /CV Maju Jaya Digital/, url);
      assert.match(text, /Sari Wijaya/);
      assert.match(text, new RegExp(c.email.replace(/[.]/g, '\\.')));
      assert.match(text, /Tax number: 09\.876\.543\.2-109\.000/, url);
    }
  });

  test('a personal account: name and e-mail, its tax number when the profile has one, no business line', async () => {
    const c = await customerSession(t, { firstName: 'Budi', lastName: 'Santoso', personalProfile: { tax_number: '11.222.333.4-555.000' }, businessProfile: { name: 'Left over' } });
    const d = await deposit(t, c.id, { amount: 100000, method_code: 'SP' });
    const text = await pdfOf(c.cookie, `/api/billing/invoice/${d.invoice_id}/download`);
    assertIssuer(text);
    assert.match(text, /Budi Santoso/);
    assert.match(text, /Tax number: 11\.222\.333\.4-555\.000/);
    assert.doesNotMatch(text, /Left over/, 'a business name counts only on a business account');
  });

  test('postpaid invoice', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID', accountType: 'B', businessProfile: { name: 'PT Postpaid Sejahtera', tax_number: '22.333.444.5-666.000' } });
    await insertPrice(t, 'tier:9931', '73000', new Date(START - 86_400_000).toISOString());
    await t.container.services.metering.open({ customerId: c.id, resourceType: 'vm', resourceId: `vm-${c.id}`, description: 'VM paper', priceKey: 'tier:9931', locationId: 1, at: new Date(START) });
    clock.set(new Date(END + 40 * 60_000));
    assert.ok((await t.container.services.postpaid.issueMonthly()) >= 1);
    const [inv] = await queryRows<{ id: string }>(t.container.db, sql`select id::text from postpaid_invoices where customer_id = ${c.id}`);
    assert.ok(inv);
    const staff = await adminSession(t);
    // a month went by: log in again
    const cookie = await loginCustomer(t, c.email, c.password);
    for (const [who, url] of [
      [cookie, `/api/billing/invoice/${inv.id}/download`],
      [staff.cookie, `/api/backoffice/billing/export-invoice?id=${inv.id}`],
    ] as const) {
      const text = await pdfOf(who, url);
      assertIssuer(text);
      assert.match(text, /PT Postpaid Sejahtera/);
      assert.match(text, /Tax number: 22\.333\.444\.5-666\.000/);
    }
  });

  test('before any details are saved, the issuer is the application', async () => {
    await t.container.db.execute(sql`delete from company_details`);
    const c = await customerSession(t);
    const d = await deposit(t, c.id, { amount: 100000, method_code: 'SP' });
    const text = await pdfOf(c.cookie, `/api/billing/invoice/${d.invoice_id}/download`);
    const appName = (await t.app.inject({ method: 'GET', url: '/api/backoffice/setting', headers: { cookie: (await adminSession(t)).cookie } })).json().data.app_name;
    assert.match(text, /Issued by/);
    assert.ok(text.includes(appName), text);
  });
});

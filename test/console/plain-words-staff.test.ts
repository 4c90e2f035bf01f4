import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminSession } from '../helpers/admins.js';
import { eventually } from '../helpers/app.js';
import { staffLogin, startConsoleApp, type ConsoleApp, visitLoggedOut } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';
import { deposit, invoiceRow, pgoneForm, postPgone, wallet } from '../helpers/money.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('staff screens speak to people, not to programmers', () => {
  test('a logged-out visit goes to the login page without a failed request in the browser console', async () => {
    assert.deepEqual(await visitLoggedOut(app, ['/backoffice', '/backoffice/customers', '/backoffice/account'], /\/backoffice\/login\?next=/), { failed: [], errors: [] });
  });


  test("a customer's credit history names the entries; price schedules name the component and location and write money to the cent", async () => {
    const admin = await adminSession(app);
    const bo = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });

    // a paid top-up: a BalanceLogAdd entry in the ledger
    const customer = await customerSession(app);
    const inv = await deposit(app, customer.id, { amount: 250000 });
    assert.equal((await postPgone(app, pgoneForm(app, await invoiceRow(app, inv.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(app, customer.id))?.current_balance === '250000.00');

    // a price change of vCPU in location 1: 45,000 a month is 61.643836 an hour
    const components = (await bo('GET', '/component/components')).json().data as { id: number; code: string; name: string }[];
    const vcpu = components.find((c) => c.code === 'vcpu')!;
    const location = ((await app.app.inject({ method: 'GET', url: '/api/lookup/locations' })).json().data as { id: number; name: string }[]).find((l) => l.id === 1)!;
    const scheduled = await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu.id, monthly_price: 45000, effective_date: new Date(Date.now() + 7 * 24 * 3600_000).toISOString() });
    assert.equal(scheduled.statusCode, 201, scheduled.body);
    assert.equal(scheduled.json().data.hourly_price, 61.643836);

    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, admin.email, admin.password);

    await page.goto(`/backoffice/customers/${customer.id}`);
    const history = page.getByRole('table', { name: 'Credit history' });
    await history.getByRole('row').filter({ hasText: '250,000' }).getByRole('cell', { name: 'Top-up', exact: true }).waitFor();
    assert.doesNotMatch((await history.textContent()) ?? '', /BalanceLog/);

    await page.getByRole('link', { name: 'Pricing' }).click();
    const schedules = page.getByRole('table', { name: 'Price schedules' });
    const row = schedules.getByRole('row').filter({ hasText: 'IDR 45,000' });
    await row.waitFor();
    const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
    assert.equal(cells[0], vcpu.name);
    assert.equal(cells[1], location.name);
    assert.equal(cells[2], 'IDR 45,000');
    assert.equal(cells[3], 'IDR 61.64');
    assert.doesNotMatch((await schedules.textContent()) ?? '', /component:\d|61\.643836/);
    await ctx.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { createAdmin } from '../helpers/admins.js';
import { screenshot, staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a small picture')]);

describe('the staff console in the browser', () => {
  test('a ticket opened by a customer with an attachment appears on the staff list without a reload; the staff reply reaches the customer', async () => {
    const staff = await createAdmin(app, { role: 'Admin Support' });
    const staffCtx = await app.context();
    const staffPage = await staffCtx.newPage();
    await staffLogin(staffPage, staff.email, staff.password);
    await staffPage.getByRole('link', { name: 'Tickets' }).click();
    await staffPage.getByText('Live: new tickets and replies appear as they come.').waitFor();
    await staffPage.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();

    const customer = await customerSession(app);
    const customerCtx = await app.context({ width: 375 });
    await useSession(customerCtx, app.base, customer.cookie);
    const page = await customerCtx.newPage();
    await page.goto('/tickets/new');
    await page.getByLabel('Title').fill('Cannot reach my VM');
    await page.getByLabel('Message').fill('Screenshot attached.');
    await page.getByLabel(/Attachments/).setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Open the ticket' }).click();
    await page.getByRole('heading', { name: 'Cannot reach my VM' }).waitFor();
    await page.getByRole('link', { name: 'screen.png' }).waitFor();

    // the staff list was open all along: the SSE stream brings the new ticket in
    await staffPage.getByRole('link', { name: 'Cannot reach my VM' }).click();
    await staffPage.getByRole('link', { name: 'screen.png' }).waitFor();
    await screenshot(staffPage, 'staff-ticket');
    await staffPage.getByLabel('Message').fill('We are on it: the VM was restarted.');
    await staffPage.getByRole('button', { name: 'Send reply' }).click();
    await staffPage.getByText('We are on it: the VM was restarted.').waitFor();

    await page.getByText('We are on it: the VM was restarted.').waitFor();
    await page.getByText(/\(support\)/).waitFor();
    await staffCtx.close();
    await customerCtx.close();
  });

  test('staff schedule a price change, see its revenue impact before saving, and cancel it', async () => {
    const staff = await createAdmin(app, { role: 'Admin Billing' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, staff.email, staff.password);
    await page.getByRole('link', { name: 'Pricing' }).click();
    await page.getByLabel('What').selectOption('tier');
    await page.getByLabel('Location').first().selectOption({ index: 1 });
    await page.getByLabel('Item').selectOption({ label: 'gp.small' });
    // a tier prices its package (the default) or any component itself
    assert.equal(await page.getByLabel('Price of').inputValue(), '');
    assert.ok((await page.getByLabel('Price of').locator('option').allTextContents()).includes('Public IP on this tier (per IP)'));
    await page.getByLabel('New monthly price').fill('123456');
    const soon = new Date(Date.now() + 7 * 24 * 3600_000);
    const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Effective from (your local time)').fill(local);
    const waiting = async () => (await queryRows<{ n: number }>(app.container.db, sql`select count(*)::int as n from price_schedules where status = 'waiting'`))[0]!.n;
    const before = await waiting();
    await page.getByRole('button', { name: 'Preview the revenue impact' }).click();
    const impact = page.getByTestId('impact');
    await impact.waitFor();
    assert.match((await impact.textContent()) ?? '', /123,456/);
    assert.match((await impact.textContent()) ?? '', /Monthly revenue/);
    assert.equal(await waiting(), before, 'the preview saves nothing');
    await screenshot(page, 'staff-pricing');
    await page.getByRole('button', { name: 'Save the schedule' }).click();
    await page.getByText('Price change scheduled.').waitFor();
    assert.equal(await waiting(), before + 1);
    const row = page.getByRole('row', { name: /123,456/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal(await waiting(), before);
    await ctx.close();
  });

  test('a role without manage_balance sees no balance adjustment, and the API refuses it when sent anyway', async () => {
    const customer = await customerSession(app);
    const staff = await createAdmin(app, { permissions: ['view_users', 'view_dashboard'] });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, staff.email, staff.password);
    await page.goto(`/backoffice/customers/${customer.id}`);
    await page.getByTestId('customer-balance').waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Adjust the balance' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Pricing' }).count(), 0);
    const res = await page.request.post(`/api/backoffice/customer/${customer.id}/balance`, { data: { type: 'ADD', amount: 1000, description: 'sneaky' } });
    assert.equal(res.status(), 403);
    assert.equal((await res.json()).code, 'FORBIDDEN');

    // a role with it sees the control
    const boss = await createAdmin(app, { permissions: ['view_users', 'manage_balance'] });
    const bossCtx = await app.context();
    const bossPage = await bossCtx.newPage();
    await staffLogin(bossPage, boss.email, boss.password);
    await bossPage.goto(`/backoffice/customers/${customer.id}`);
    await bossPage.getByRole('heading', { name: 'Adjust the balance' }).waitFor();
    await ctx.close();
    await bossCtx.close();
  });

  test('impersonation opens the customer console in a new tab, marked as such while it lasts', async () => {
    const customer = await customerSession(app, { email: 'impersonated@example.test' });
    const staff = await createAdmin(app, { role: 'Admin Support' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, staff.email, staff.password);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Search by name or e-mail').fill('impersonated@');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('table', { name: 'Customers' }).getByRole('link').first().click();
    const opened = ctx.waitForEvent('page');
    await page.getByRole('button', { name: 'Impersonate' }).click();
    const tab = await opened;
    await tab.getByText(/Staff impersonation: you are acting as .* \(impersonated@example.test\)/).waitFor();
    await tab.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByText(/Impersonation started in a new tab/).waitFor();
    // the customer's own session shows no banner
    const own = await app.context();
    await useSession(own, app.base, customer.cookie);
    const ownPage = await own.newPage();
    await ownPage.goto('/');
    await ownPage.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // the devices list reads the same sessions the banner does: once it shows, the banner has decided
    await ownPage.getByRole('link', { name: 'Profile & security' }).click();
    await ownPage.getByText('This device').waitFor();
    assert.equal(await ownPage.getByText(/Staff impersonation/).count(), 0);
    await ctx.close();
    await own.close();
  });
});

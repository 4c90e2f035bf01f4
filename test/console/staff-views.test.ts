import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { createAdmin } from '../helpers/admins.js';
import { queueDrained } from '../helpers/app.js';
import { staffLogin, startConsoleApp, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { postData } from '../helpers/http.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('staff screens of what customers run, the paperwork and the money', () => {
  test('support finds a VM by name, reads its owner, hypervisor and addresses, then the customer page lists resources and tickets', async () => {
    const customer = await customerSession(app, { firstName: 'Maya', lastName: 'Lestari' });
    await fund(app, customer.id);
    const vmId = (await createVm(app, customer.cookie, { name: 'maya-web', location_id: 1, tier_id: await seededTier(app) })).json().data.id;
    await vmJobsDone(app);
    const network = (await postData(app, customer.cookie, '/api/network/private', { name: 'maya-backend', location_id: 1, cidr: 24 })).uuid;
    await queueDrained(app);
    await postData(app, customer.cookie, `/api/network/private/${network}/assign`, { instance_id: vmId, instance_type: 'VM' });
    await postData(app, customer.cookie, '/api/ticket', { title: 'Disk is slow', message: 'Since yesterday.' });
    await queueDrained(app);

    const support = await createAdmin(app, { role: 'Admin Support' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, support.email, support.password);
    await page.getByRole('link', { name: 'Virtual machines' }).click();
    await page.getByRole('heading', { name: 'Virtual machines', level: 1 }).waitFor();
    await page.getByLabel('Name or public IP').fill('maya-web');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('status').filter({ hasText: '1 VM' }).waitFor();
    assert.match(page.url(), /search=maya-web/, 'the filter is in the address, so it can be shared');
    const row = page.getByRole('row').filter({ hasText: 'maya-web' });
    await row.getByText(customer.email).waitFor();
    await row.getByText('gp.small').waitFor();

    await row.getByRole('link', { name: 'maya-web' }).click();
    await page.getByRole('heading', { name: 'maya-web', level: 1 }).waitFor();
    const [vm] = await queryRows<{ hypervisor: string; public_ip: string }>(app.container.db, sql`select hypervisor, public_ip from vms where id = ${vmId}`);
    await page.getByText(vm!.hypervisor, { exact: true }).waitFor();
    await page.getByText('Running').first().waitFor();
    const addresses = page.getByRole('region', { name: 'Addresses' });
    await addresses.getByRole('row').filter({ hasText: vm!.public_ip }).getByText('Public').waitFor();
    await addresses.getByRole('row').filter({ hasText: 'maya-backend' }).getByText('Private').waitFor();

    // the owner's page: what they run and what they asked, without impersonating them
    await page.getByRole('link', { name: 'Maya Lestari' }).click();
    await page.getByRole('heading', { name: 'Maya Lestari', level: 1 }).waitFor();
    const resources = page.getByRole('region', { name: 'Resources' });
    await resources.getByRole('row').filter({ hasText: 'maya-web' }).getByText('VM', { exact: true }).waitFor();
    await resources.getByRole('row').filter({ hasText: 'maya-backend' }).getByText('Private network').waitFor();
    await page.getByLabel('Show').selectOption({ label: 'Private networks' });
    await resources.getByRole('row').filter({ hasText: 'maya-web' }).waitFor({ state: 'detached' });
    await resources.getByRole('row').filter({ hasText: 'maya-backend' }).waitFor();
    await page.getByRole('region', { name: 'Support tickets' }).getByRole('link', { name: 'Disk is slow' }).waitFor();
    await ctx.close();
  });

  test('the owner sets the company details in the settings; the dashboard shows revenue without the payment fee and the fee apart', async () => {
    // a top-up of 500,000 with a fee of 4,000, paid now
    const c = await customerSession(app);
    const at = new Date().toISOString();
    await app.container.db.execute(sql`insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount,
        currency, status, expires_at, paid_at, created_at)
      values (gen_random_uuid(), ${c.id}, 'pgone', 'SP', 'QRIS', 'QRIS', 500000, 4000, 504000, 'IDR', 'Paid', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)`);
    const boss = await createAdmin(app);
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, boss.email, boss.password);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Not set yet').waitFor();
    await page.getByLabel('Legal name').fill('PT Awan Browser');
    await page.getByLabel(/^Address/).fill('Jl. Thamrin 1\nJakarta 10310');
    await page.getByLabel('Tax number').fill('01.111.222.3-444.000');
    await page.getByRole('button', { name: 'Save the company details' }).click();
    await page.getByText('Saved. Every receipt and invoice').waitFor();
    const saved = (await app.app.inject({ method: 'GET', url: '/api/backoffice/setting/company', headers: { cookie: await loginCookie(boss) } })).json().data;
    assert.deepEqual({ ...saved, updated_at: undefined }, { legal_name: 'PT Awan Browser', address: 'Jl. Thamrin 1\nJakarta 10310', tax_number: '01.111.222.3-444.000', updated_at: undefined });

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('revenue-this-month').filter({ hasText: /^Earned this month IDR 500,000 · / }).waitFor();
    await page.getByTestId('gateway-fees-this-month').filter({ hasText: /: IDR 4,000 this month/ }).waitFor();
    await ctx.close();
  });

  test("a tier's price for every location where it is offered, scheduled from the pricing screen", async () => {
    const billing = await createAdmin(app, { role: 'Admin Billing' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, billing.email, billing.password);
    await page.getByRole('link', { name: 'Pricing' }).click();
    await page.getByLabel('What').selectOption('tier');
    await page.getByLabel('Location').first().selectOption({ label: 'Every location where the tier is offered' });
    await page.getByLabel('Item').selectOption({ label: 'gp.large' });
    await page.getByLabel('New monthly price').fill('654321');
    const soon = new Date(Date.now() + 9 * 24 * 3600_000);
    await page.getByLabel('Effective from (your local time)').fill(new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
    await page.getByRole('button', { name: 'Preview the revenue impact' }).click();
    await page.getByTestId('impact').getByText('in those locations', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save the schedule' }).click();
    await page.getByText('Price change scheduled.').waitFor();
    await page.getByRole('region', { name: 'Price schedules' }).getByRole('row').filter({ hasText: 'Every location' }).first().waitFor();
    const [row] = await queryRows<{ location_id: number | null }>(app.container.db, sql`select location_id from price_schedules where monthly_price = 654321`);
    assert.equal(row!.location_id, null);
    await ctx.close();
  });
});

async function loginCookie(admin: { email: string; password: string }): Promise<string> {
  const res = await app.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: admin.email, password: admin.password } });
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

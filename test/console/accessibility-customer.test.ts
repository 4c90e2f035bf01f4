import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findings, fixture, open, report, scan, VIEWPORTS, type Fixture, type Violation } from '../helpers/axe.js';
import { screenshot, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { closedMenuBand, overflowX, tableOverflow } from '../helpers/layout.js';

let app: ConsoleApp;
let f: Fixture;
before(async () => {
  app = await startConsoleApp();
  f = await fixture(app);
});
after(() => app?.close());

const publicRoutes = ['/login', '/register', '/forgot-password', '/auth/verify-email?token=abc', '/auth/reset-password?token=abc'];
const customerRoutes = () => [
  '/',
  '/billing',
  '/billing?tab=postpaid',
  '/billing?tab=budget',
  '/billing/topup?status=success',
  '/vms',
  '/vms/new',
  `/vms/${f.ids.vm}`,
  '/networks',
  `/networks/${f.ids.network}`,
  '/security-groups',
  `/security-groups/${f.ids.group}`,
  '/load-balancers',
  `/load-balancers/${f.ids.balancer}`,
  '/storage',
  '/ssh-keys',
  '/alerts',
  '/tickets',
  '/tickets/new',
  `/tickets/${f.ids.ticket}`,
  '/news',
  '/notifications',
  '/account',
  '/account/change-email/confirm?token=abc',
  '/no-such-page',
];

describe('the customer console for everyone', () => {
  test('no serious or critical axe violation on any route, nor in the confirm dialog, at any width', async () => {
    const found: Violation[] = [];
    for (const width of VIEWPORTS) {
      const anonymous = await app.context({ width });
      const anonPage = await anonymous.newPage();
      for (const route of publicRoutes) found.push(...(await scan(anonPage, route, width)));
      await anonymous.close();

      const customer = await app.context({ width });
      await useSession(customer, app.base, f.customerCookie);
      const page = await customer.newPage();
      for (const route of customerRoutes()) found.push(...(await scan(page, route, width)));
      // a confirm open over its page
      await open(page, '/account');
      await page.getByRole('button', { name: 'Revoke all tokens' }).click();
      await page.getByRole('alertdialog').waitFor();
      found.push(...(await findings(page, '/account (confirm dialog)', width)));
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      if (width === 1440) {
        for (const [route, name] of [[`/networks/${f.ids.network}`, 'customer-network'], ['/storage', 'customer-storage'], ['/billing', 'customer-billing']] as const) {
          await open(page, route);
          await screenshot(page, name);
        }
      } else {
        await open(page, '/');
        await screenshot(page, 'customer-home-375');
      }
      await customer.close();
    }
    assert.deepEqual(report(found), []);
  });

  test('at 375 pixels no page is wider than the screen, the home table shows its last column, the menu leaves no band', async () => {
    const wide: string[] = [];
    const anonymous = await app.context({ width: 375 });
    const anonPage = await anonymous.newPage();
    for (const route of publicRoutes) {
      await open(anonPage, route);
      if ((await overflowX(anonPage)) > 0) wide.push(`${route}: ${await overflowX(anonPage)} px too wide`);
    }
    await anonymous.close();

    const customer = await app.context({ width: 375 });
    await useSession(customer, app.base, f.customerCookie);
    const page = await customer.newPage();
    for (const route of customerRoutes()) {
      await open(page, route);
      if ((await overflowX(page)) > 0) wide.push(`${route}: ${await overflowX(page)} px too wide`);
    }
    // the VM create page grows step by step: every step's fields must fit too
    await open(page, '/vms/new');
    await page.getByLabel('Location').selectOption({ index: 1 });
    await page.getByLabel(/gp\.small/).check();
    await page.getByLabel('Name').fill('narrow-1');
    await page.getByLabel('Block storage (optional)').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByTestId('price').waitFor();
    if ((await overflowX(page)) > 0) wide.push(`/vms/new, every step open: ${await overflowX(page)} px too wide`);

    await open(page, '/');
    await page.getByRole('table', { name: 'Running resources' }).getByRole('row').nth(1).waitFor();
    if ((await tableOverflow(page, 'Running resources')) > 0) wide.push(`/: the running resources table hides ${await tableOverflow(page, 'Running resources')} px of its last column`);

    // the menu opens over a short page, closes by its button or by the link chosen, and leaves nothing behind
    await open(page, '/news');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    if ((await closedMenuBand(page)) > 0) wide.push(`/news: a band of ${await closedMenuBand(page)} px under the header once the menu is closed by its button`);
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security groups' }).click();
    await page.getByRole('heading', { name: 'Security groups', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    if ((await closedMenuBand(page)) > 0) wide.push(`/security-groups: a band of ${await closedMenuBand(page)} px under the header once the menu is closed by a link`);
    await customer.close();
    assert.deepEqual(wide, []);
  });

  test('in maintenance mode customers see the maintenance page and staff keep working', async () => {
    const settings = (maintenance_mode: boolean) =>
      app.app.inject({
        method: 'PUT',
        url: '/api/backoffice/setting/update',
        headers: { cookie: f.staffCookie },
        payload: { app_name: 'Cloud', privacy_policy_url: 'https://x.test/p', terms_and_conditions_url: 'https://x.test/t', maintenance_mode },
      });
    assert.equal((await settings(true)).statusCode, 200);
    try {
      const customer = await app.context({ width: 375 });
      await useSession(customer, app.base, f.customerCookie);
      const page = await customer.newPage();
      await page.goto('/vms');
      await page.getByRole('heading', { name: 'We are doing maintenance' }).waitFor();
      await screenshot(page, 'customer-maintenance');
      await customer.close();
      const staff = await app.context();
      await useSession(staff, app.base, f.staffCookie);
      const staffPage = await staff.newPage();
      await open(staffPage, '/backoffice/customers');
      await staffPage.getByRole('link', { name: 'Customers' }).first().waitFor();
      await staffPage.getByRole('table', { name: 'Customers' }).getByRole('link').first().waitFor();
      await staff.close();
    } finally {
      await settings(false);
    }
  });
});

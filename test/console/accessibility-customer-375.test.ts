// @single-database: a real browser against the server on PostgreSQL; the embedded database is proven by the API suites.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixture, open, report, scan, type Fixture, type Violation } from '../helpers/axe.js';
import { screenshot, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';

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
  '/tickets',
  '/tickets/new',
  `/tickets/${f.ids.ticket}`,
  '/news',
  '/notifications',
  '/account',
  '/account/change-email/confirm?token=abc',
  '/no-such-page',
];

describe('the customer console for everyone, 375 pixels wide', () => {
  test('no serious or critical axe violation on any route, 375 pixels wide', async () => {
    const found: Violation[] = [];
    for (const width of [375]) {
      const anonymous = await app.context({ width });
      const anonPage = await anonymous.newPage();
      for (const route of publicRoutes) found.push(...(await scan(anonPage, route, width)));
      await anonymous.close();

      const customer = await app.context({ width });
      await useSession(customer, app.base, f.customerCookie);
      const page = await customer.newPage();
      for (const route of customerRoutes()) found.push(...(await scan(page, route, width)));
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

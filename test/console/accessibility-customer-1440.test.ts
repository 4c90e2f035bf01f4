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

describe('the customer console for everyone, 1440 pixels wide', () => {
  test('no serious or critical axe violation on any route, 1440 pixels wide', async () => {
    const found: Violation[] = [];
    for (const width of [1440]) {
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
});

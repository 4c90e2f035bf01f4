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

const staffRoutes = () => [
  '/backoffice/login',
  '/backoffice',
  '/backoffice/customers',
  `/backoffice/customers/${f.ids.customer}`,
  '/backoffice/tickets',
  `/backoffice/tickets/${f.ids.ticket}`,
  '/backoffice/invoices',
  '/backoffice/pricing',
  '/backoffice/promotions',
  '/backoffice/catalog',
  '/backoffice/content',
  '/backoffice/settings',
  '/backoffice/admins',
  '/backoffice/audit',
  '/backoffice/account',
  '/backoffice/no-such-page',
];

describe('the staff console for everyone, 375 pixels wide', () => {
  test('no serious or critical axe violation on any route, 375 pixels wide', async () => {
    const found: Violation[] = [];
    for (const width of [375]) {
      const staff = await app.context({ width });
      await useSession(staff, app.base, f.staffCookie);
      const page = await staff.newPage();
      for (const route of staffRoutes()) found.push(...(await scan(page, route, width)));
      if (width === 1440) {
        for (const [route, name] of [['/backoffice', 'staff-dashboard'], [`/backoffice/customers/${f.ids.customer}`, 'staff-customer'], ['/backoffice/admins', 'staff-roles']] as const) {
          await open(page, route);
          await screenshot(page, name);
        }
      }
      await staff.close();
    }
    assert.deepEqual(report(found), []);
  });
});

// @single-database: a real browser against the server on PostgreSQL; the embedded database is proven by the API suites.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
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

describe('the staff console for everyone, 1440 pixels wide', () => {
  test('no serious or critical axe violation on any route, 1440 pixels wide', async () => {
    const found: Violation[] = [];
    for (const width of [1440]) {
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

  test("the first screen's JavaScript stays under 300 KB gzipped; the staff console is a chunk of its own", async () => {
    for (const [route, staffCode] of [['/login', false], ['/backoffice/login', true]] as const) {
      const ctx = await app.context();
      const page = await ctx.newPage();
      const scripts = new Map<string, Buffer>();
      page.on('response', async (res) => {
        if (res.url().endsWith('.js')) scripts.set(res.url(), await res.body());
      });
      await open(page, route);
      const gz = [...scripts.values()].reduce((n, b) => n + gzipSync(b).length, 0);
      assert.ok(gz > 20_000 && gz <= 300 * 1024, `${route}: ${gz} bytes of JavaScript gzipped`);
      assert.equal([...scripts.keys()].some((u) => /StaffApp/.test(u)), staffCode, `${route}: ${[...scripts.keys()].join(', ')}`);
      await ctx.close();
    }
  });
});

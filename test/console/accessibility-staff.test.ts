import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { fixture, open, report, scan, VIEWPORTS, type Fixture, type Violation } from '../helpers/axe.js';
import { screenshot, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { overflowX } from '../helpers/layout.js';

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
  '/backoffice/vms',
  `/backoffice/vms/${f.ids.vm}`,
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

describe('the staff console for everyone', () => {
  test('no serious or critical axe violation on any route at any width', async () => {
    const found: Violation[] = [];
    for (const width of VIEWPORTS) {
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

  test('at 375 pixels no staff page is wider than the screen', async () => {
    const staff = await app.context({ width: 375 });
    await useSession(staff, app.base, f.staffCookie);
    const page = await staff.newPage();
    const wide: string[] = [];
    for (const route of staffRoutes()) {
      await open(page, route);
      if ((await overflowX(page)) > 0) wide.push(`${route}: ${await overflowX(page)} px too wide`);
    }
    await staff.close();
    assert.deepEqual(wide, []);
  });
});

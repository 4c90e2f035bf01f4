/**
 * The VM console in Chromium, as a person uses it: the Console card of the VM page opens a terminal
 * with the keyboard in it; what they type runs on the VM and its output shows. Against the
 * simulated datacenter's line shell, for the customer and for staff (a real guest:
 * vm-console-real-guest.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { queryRows } from '../../src/platform/db/database.js';
import { createAdmin } from '../helpers/admins.js';
import { staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, getVm, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { openConsole } from '../helpers/vm-console.js';
import { eventually } from '../helpers/app.js';

/** Errors the page logged (a refused inline style of the terminal would show here). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

describe('the VM console in the browser (simulated datacenter)', () => {
  let app: ConsoleApp;
  before(async () => {
    app = await startConsoleApp();
  });
  after(() => app?.close());

  test('a customer opens the console of a running VM, types a command and reads its output; Close console ends it', async () => {
    const c = await customerSession(app);
    await fund(app, c.id);
    const vm = (await createVm(app, c.cookie, { name: 'web-term', location_id: 1, tier_id: await seededTier(app) })).json().data;
    await vmJobsDone(app);
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    await page.goto(`/vms/${vm.id}`);
    await page.getByRole('heading', { name: 'web-term', level: 1 }).waitFor();
    const terminal = await openConsole(page, 'web-term');
    await terminal.getByText(`root@vm-${vm.id}:~#`).first().waitFor();
    await page.keyboard.type('hostname');
    await page.keyboard.press('Enter');
    await terminal.getByText(new RegExp(`^\\s*vm-${vm.id}\\s*$`)).first().waitFor();
    await page.keyboard.type('echo typed in chromium');
    await page.keyboard.press('Enter');
    await terminal.getByText(/^\s*typed in chromium\s*$/).first().waitFor();
    // Shift+Tab leaves the terminal for the Close button
    await page.keyboard.press('Shift+Tab');
    const close = page.getByRole('button', { name: 'Close console' });
    assert.equal(await close.evaluate((el) => el === document.activeElement), true);
    await close.click();
    await page.getByRole('button', { name: 'Open console' }).waitFor();
    await eventually(async () => (await queryRows(app.container.db, sql`select id from vm_console_sessions where vm_id = ${vm.id} and closed_at is not null`)).length === 1);
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('the button waits for a running VM; staff with operate_compute open the console from the staff VM page', async () => {
    const c = await customerSession(app);
    await fund(app, c.id);
    const vm = (await createVm(app, c.cookie, { name: 'ops-term', location_id: 1, tier_id: await seededTier(app) })).json().data;
    await vmJobsDone(app);
    assert.equal((await app.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(app);
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${vm.id}`);
    const card = page.getByRole('region', { name: 'Console' });
    assert.equal(await card.getByRole('button', { name: 'Open console' }).isDisabled(), true);
    await card.getByText('The console needs a running VM.').waitFor();
    await ctx.close();
    assert.equal((await app.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/start`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(app);
    assert.equal((await getVm(app, c.cookie, vm.id)).status, 'Running');

    const operator = await createAdmin(app, { permissions: ['view_compute', 'operate_compute'] });
    const staffCtx = await app.context();
    const staffPage = await staffCtx.newPage();
    const errors = collectErrors(staffPage);
    await staffLogin(staffPage, operator.email, operator.password);
    await staffPage.goto(`/backoffice/vms/${vm.id}`);
    await staffPage.getByRole('heading', { name: 'ops-term', level: 1 }).waitFor();
    const terminal = await openConsole(staffPage, 'ops-term');
    await staffPage.keyboard.type('uname -a');
    await staffPage.keyboard.press('Enter');
    await terminal.getByText(new RegExp(`Linux vm-${vm.id} `)).first().waitFor();
    assert.deepEqual(errors, []);
    await staffCtx.close();
  });
});

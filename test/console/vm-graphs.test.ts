import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { createAdmin } from '../helpers/admins.js';
import { staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

/*
 * From a fresh start: a VM runs, the minute collection samples it a few times (the platform clock
 * moves a minute each time), and its owner opens the VM page and sees the graphs drawn with
 * points, for the last hour and the last 24 hours, and the month's traffic; staff see the same.
 */
const clock = new ManualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 5_000));
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

describe('VM graphs in the console', () => {
  test('a customer opens their VM\'s graphs and sees points; staff see the same VM\'s graphs', async () => {
    const c = await customerSession(app);
    await fund(app, c.id);
    const res = await createVm(app, c.cookie, { name: 'graphed', location_id: 1, tier_id: await seededTier(app) });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().data.id as number;
    await vmJobsDone(app);
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000);
      await app.container.services.metricsCollector.collect();
    }

    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${id}`);
    const card = page.getByRole('region', { name: 'Graphs', exact: true });
    await card.waitFor();
    const cpu = card.getByTestId('graph-CPU');
    await cpu.locator('canvas').waitFor();
    assert.equal(await cpu.getAttribute('data-points'), '5', 'five minutes after the baseline');
    assert.match((await cpu.locator('figcaption').textContent()) ?? '', /latest: CPU used \d+(\.\d)? %/);
    const memory = card.getByTestId('graph-Memory in use');
    assert.match((await memory.locator('figcaption').textContent()) ?? '', /MiB|GiB/);
    const net = card.getByTestId('graph-Network');
    assert.match((await net.locator('figcaption').textContent()) ?? '', /In [\d.]+ (B|KiB|MiB)\/s, Out [\d.]+ (B|KiB|MiB)\/s/);
    // the legend names the lines (the axes, with their units, are drawn on the canvas)
    assert.match((await cpu.locator('.u-legend').textContent()) ?? '', /CPU used/);
    assert.match((await net.locator('.u-legend').textContent()) ?? '', /In[\s\S]*Out/);
    if (process.env.GRAPHS_SCREENSHOT) await card.screenshot({ path: process.env.GRAPHS_SCREENSHOT });

    await card.getByRole('tab', { name: 'Last 24 hours' }).click();
    await card.getByRole('tabpanel', { name: 'Last 24 hours' }).getByTestId('graph-CPU').locator('canvas').waitFor();
    assert.ok(Number(await card.getByTestId('graph-Disk').getAttribute('data-points')) >= 1);
    const month = clock.now().toISOString().slice(0, 7);
    await card.getByRole('row').filter({ hasText: month }).waitFor();

    const viewer = await createAdmin(app, { permissions: ['view_compute'] });
    const staffCtx = await app.context();
    const staffPage = await staffCtx.newPage();
    await staffLogin(staffPage, viewer.email, viewer.password);
    await staffPage.goto(`/backoffice/vms/${id}`);
    const staffCard = staffPage.getByRole('region', { name: 'Graphs', exact: true });
    await staffCard.getByTestId('graph-CPU').locator('canvas').waitFor();
    assert.equal(await staffCard.getByTestId('graph-CPU').getAttribute('data-points'), '5');
    await ctx.close();
    await staffCtx.close();
  });
});

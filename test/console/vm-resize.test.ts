import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { screenshot, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { insertPrice } from '../charging/helpers.js';

const START = Date.parse('2030-01-01T10:00:00Z');
const clock = new ManualClock(new Date(START));
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

describe('resizing a VM in the browser', () => {
  test('picks a larger size from the priced list, sees the new price and the restart, confirms; the hour shows both sizes', async () => {
    const small = await seededTier(app, 'gp.small');
    const medium = await seededTier(app, 'gp.medium');
    await insertPrice(app, `tier:${small}`, '73000', '2029-12-31T00:00:00Z');
    await insertPrice(app, `tier:${medium}`, '146000', '2029-12-31T00:00:00Z');
    const c = await customerSession(app);
    await fund(app, c.id);
    const created = await createVm(app, c.cookie, { name: 'web-1', location_id: 1, tier_id: small, public_ip: false });
    assert.equal(created.statusCode, 201, created.body);
    await vmJobsDone(app);

    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${created.json().data.id}`);
    await page.getByRole('heading', { name: 'web-1' }).waitFor();

    const resize = page.getByRole('group', { name: 'New size' });
    assert.equal(await resize.getByLabel(/gp\.small/).isDisabled(), true, 'the current size cannot be chosen');
    await resize.getByLabel(/gp\.medium/).check();
    const price = page.getByRole('region', { name: 'New price' });
    await price.getByText('+IDR 73,000 a month').waitFor();
    assert.match((await price.textContent()) ?? '', /The VM will restart/);
    await screenshot(page, 'customer-vm-resize');

    clock.set(new Date(START + 20 * 60_000 + 30_000));
    await price.getByRole('button', { name: 'Resize' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /Resize web-1 to gp\.medium\? It will cost IDR 146,000 a month \(IDR 200 an hour\) instead of IDR 73,000.*The VM will restart/);
    // the datacenter takes its time: while the resize is under way the page says where it is going
    simulator(app).hosts.delayMs = 1500;
    await dialog.getByRole('button', { name: 'Yes, resize' }).click();
    await page.getByRole('status').filter({ hasText: 'VM is being resized: it restarts' }).waitFor();
    const target = page.getByRole('status', { name: 'Resizing' });
    await target.waitFor();
    assert.match((await target.textContent()) ?? '', /Resizing to gp\.medium: 2 vCPU, 4 GB RAM, 50 GB disk/);
    const size = (await page.locator('dd').filter({ has: target }).textContent()) ?? '';
    assert.match(size, /^1 vCPU, 1 GB RAM, 25 GB disk/, 'the size shown is the one it has until the change is done');
    await page.getByRole('group', { name: 'New size' }).getByText('resizing to').waitFor();
    await screenshot(page, 'customer-vm-resizing');
    await vmJobsDone(app);
    simulator(app).hosts.delayMs = 0;
    await target.waitFor({ state: 'detached' });
    await page.getByText('2 vCPU, 4 GB RAM, 50 GB disk', { exact: true }).waitFor();

    clock.set(new Date(START + 3_600_000 + 5 * 60_000));
    await app.container.services.charging.runHourly();
    await page.getByRole('link', { name: 'Home' }).click();
    const hours = page.getByRole('region', { name: 'Charged hours' });
    await hours.getByText('VM web-1 (gp.small)').waitFor();
    const rows = await hours.locator('tbody tr').allTextContents();
    assert.ok(rows.some((r) => r.includes('VM web-1 (gp.small)') && r.includes('20 min 30 s') && r.includes('IDR 34.166667')), rows.join('\n'));
    assert.ok(rows.some((r) => r.includes('VM web-1 (gp.medium)') && r.includes('39 min 30 s') && r.includes('IDR 131.666667')), rows.join('\n'));
    assert.ok(rows.some((r) => r.includes('Charged') && r.includes('IDR 165.83')), rows.join('\n'));
    await ctx.close();
  });
});

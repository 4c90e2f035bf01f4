import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { SimulatedDatacenter } from '../../src/integrations/datacenter/index.js';
import type { FolderBlobStore } from '../../src/integrations/object-storage/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { screenshot, staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createAdmin } from '../helpers/admins.js';
import { queueDrained } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { insertPrice } from '../charging/helpers.js';

const START = Date.parse('2030-01-01T10:00:00Z');
const clock = new ManualClock(new Date(START));
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

describe('backups of a VM in the browser', () => {
  test('switches backups on with the price shown, backs up now, sees a failure with its reason, restores after a confirmation, makes a new VM from a backup', async () => {
    const small = await seededTier(app, 'gp.small');
    await insertPrice(app, `tier:${small}`, '73000', '2029-12-31T00:00:00Z');
    const c = await customerSession(app);
    await fund(app, c.id);
    const created = await createVm(app, c.cookie, { name: 'db-1', location_id: 1, tier_id: small, public_ip: false });
    assert.equal(created.statusCode, 201, created.body);
    await vmJobsDone(app);
    const vmId = created.json().data.id as number;
    const [row] = await queryRows<{ external_id: string }>(app.container.db, sql`select external_id from vms where id = ${vmId}`);
    const disks = (app.container.datacenter as SimulatedDatacenter).backups;
    disks.writeBytes(row!.external_id, 0, Buffer.from('customer data v1'));
    const workDone = () => queueDrained(app, { queues: ['backups.work'] });

    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${vmId}`);
    await page.getByRole('heading', { name: 'db-1' }).waitFor();
    const card = page.locator('section, div').filter({ has: page.getByRole('heading', { name: 'Backups' }) }).last();
    await card.getByText('IDR 14,600 a month').waitFor();
    assert.match((await card.textContent()) ?? '', /20% of this VM’s price/);

    const plan = page.getByRole('form', { name: 'Backup plan' });
    await plan.getByLabel('Back up this VM').check();
    await plan.getByLabel('How often').selectOption('weekly');
    await plan.getByLabel('Day').selectOption('3');
    await plan.getByLabel('Starting at').selectOption('4');
    await plan.getByRole('button', { name: 'Save backup plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Backups are on.' }).waitFor();
    await page.getByText(/Next backup:/).waitFor();

    await plan.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup started.' }).waitFor();
    await workDone();
    const table = page.getByRole('region', { name: 'Backups of this VM' });
    await table.getByText('completed').waitFor({ timeout: 20_000 });

    // a failure is shown with its reason
    const store = app.container.backupStore as FolderBlobStore;
    store.failNext = 100;
    try {
      await plan.getByRole('button', { name: 'Back up now' }).click();
      await workDone();
      await table.getByText(/backup storage could not be reached/).waitFor({ timeout: 20_000 });
    } finally {
      store.failNext = 0;
    }
    await screenshot(page, 'customer-vm-backups');

    disks.writeBytes(row!.external_id, 0, Buffer.from('customer data v2'));
    const done = table.locator('tbody tr').filter({ hasText: 'completed' }).first();
    await done.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /Restore db-1 from the backup of .*what was written since is lost/);
    await dialog.getByRole('button', { name: 'Yes, restore' }).click();
    await page.getByRole('status').filter({ hasText: 'Restore started.' }).waitFor();
    await workDone();
    await page.getByRole('region', { name: 'Restores of this VM' }).getByText('completed').waitFor({ timeout: 20_000 });
    assert.equal(disks.readBytes(row!.external_id, 0, 16).toString(), 'customer data v1');

    await done.getByRole('button', { name: 'New VM' }).click();
    const form = page.getByRole('form', { name: 'New VM from a backup' });
    await form.getByLabel('Name').fill('db-copy');
    await form.getByLabel('Size').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Create VM from backup' }).click();
    await page.getByRole('heading', { name: 'db-copy' }).waitFor();

    // a backup deleted after a confirmation: gone from the list and its manifest removed (the
    // first one is in use by the new VM's restore; a newer one is taken to be deleted)
    clock.advance(1000); // the newest, first in the list
    const another = await app.app.inject({ method: 'POST', url: `/api/compute/vm/${vmId}/backups`, headers: { cookie: c.cookie } });
    assert.equal(another.statusCode, 202, another.body);
    await workDone();
    await page.goto(`/vms/${vmId}`);
    const kept = page.getByRole('region', { name: 'Backups of this VM' }).locator('tbody tr').filter({ hasText: 'completed' });
    await kept.first().waitFor();
    const before = await kept.count();
    const newest = another.json().data.id as string;
    await kept.first().getByRole('button', { name: 'Delete' }).click();
    const sure = page.getByRole('alertdialog', { name: 'Delete' });
    assert.match((await sure.textContent()) ?? '', /It cannot be restored afterwards/);
    await sure.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup deleted.' }).waitFor();
    // the list is read again: one completed backup fewer
    await page.waitForFunction((n) => [...document.querySelectorAll('[aria-label="Backups of this VM"] tbody tr')].filter((r) => r.textContent!.includes('completed')).length === n - 1, before);
    const [gone] = await queryRows<{ status: string }>(app.container.db, sql`select status from vm_backups where id = ${newest}`);
    assert.equal(gone!.status, 'deleted');
    assert.equal(await store.has(`backups/${newest}.json`), false);
    await ctx.close();
  });

  test('staff see the backups of a VM and restore one for the customer after a confirmation; they set the price share and see the usage on the pricing page', async () => {
    const small = await seededTier(app, 'gp.small');
    const c = await customerSession(app);
    await fund(app, c.id);
    const created = await createVm(app, c.cookie, { name: 'supported', location_id: 1, tier_id: small, public_ip: false });
    await vmJobsDone(app);
    const vmId = created.json().data.id as number;
    const on = await app.app.inject({ method: 'PUT', url: `/api/compute/vm/${vmId}/backups/plan`, headers: { cookie: c.cookie }, payload: { enabled: true } });
    assert.equal(on.statusCode, 200, on.body);
    const b = await app.app.inject({ method: 'POST', url: `/api/compute/vm/${vmId}/backups`, headers: { cookie: c.cookie } });
    assert.equal(b.statusCode, 202, b.body);
    await queueDrained(app, { queues: ['backups.work'] });

    const operator = await createAdmin(app, { permissions: ['view_compute', 'operate_compute', 'view_pricing', 'manage_pricing'] });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, operator.email, operator.password);
    await page.goto(`/backoffice/vms/${vmId}`);
    const table = page.getByRole('region', { name: 'Backups of this VM' });
    await table.getByText('completed').waitFor();
    await table.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore' });
    assert.match((await dialog.textContent()) ?? '', /is told in the app, and the restore is in the audit log/);
    await dialog.getByRole('button', { name: 'Yes, restore' }).click();
    await page.getByRole('status').filter({ hasText: 'Restore started.' }).waitFor();
    await queueDrained(app, { queues: ['backups.work'] });
    const told = await queryRows<{ title: string }>(app.container.db, sql`select title from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION'`);
    assert.deepEqual(told.map((n) => n.title), ['Your VM supported is being restored by our team']);

    await page.goto('/backoffice/pricing');
    const form = page.getByRole('form', { name: 'Backup price and retention' });
    await form.getByLabel("Price, % of the VM's price").fill('25');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'a new share applies from now' }).waitFor();
    await page.getByRole('region', { name: 'Backup usage per customer and location' }).getByRole('cell', { name: String(c.id), exact: true }).first().waitFor();
    const [policy] = await queryRows<{ share: string }>(app.container.db, sql`select price_share_percent::text as share from backup_policy`);
    assert.equal(Number(policy!.share), 25);
    await ctx.close();
  });
});

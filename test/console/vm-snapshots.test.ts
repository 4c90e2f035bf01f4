import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { createAdmin } from '../helpers/admins.js';
import { eventually } from '../helpers/app.js';
import { staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

async function runningVm(name: string) {
  const c = await customerSession(app);
  await fund(app, c.id);
  const res = await createVm(app, c.cookie, { name, location_id: 1, tier_id: await seededTier(app), os: 'ubuntu-24.04' });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(app);
  return { c, id: res.json().data.id as number };
}

const snapshotsOf = (vmId: number) =>
  queryRows<{ id: number; name: string; status: string }>(app.container.db, sql`select id, name, status from vm_snapshots where vm_id = ${vmId} order by id`);

describe('VM snapshots in the console', () => {
  test('a customer takes a snapshot, renames it, restores the VM from it after a confirmation naming what is lost, and deletes it', async () => {
    const { c, id } = await runningVm('shop-1');
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${id}`);
    const card = page.getByRole('region', { name: 'Snapshots', exact: true });
    await card.waitFor();

    await card.getByLabel('Snapshot name').fill('before upgrade');
    await card.getByRole('button', { name: 'Take snapshot' }).click();
    await card.getByRole('status').filter({ hasText: 'Snapshot is being taken' }).waitFor();
    const row = card.getByRole('row').filter({ hasText: 'before upgrade' });
    await row.getByText('Available').waitFor({ timeout: 20_000 });
    await row.getByText('Crash-consistent').waitFor();
    const [s] = await snapshotsOf(id);
    assert.equal(s!.status, 'Available');

    await row.getByRole('button', { name: 'Rename' }).click();
    await card.getByLabel('New name of before upgrade').fill('golden');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('status').filter({ hasText: 'Snapshot renamed' }).waitFor();
    const golden = card.getByRole('row').filter({ hasText: 'golden' });
    await golden.waitFor();

    // No restores nothing; Yes restores
    await golden.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore' });
    const text = (await dialog.textContent()) ?? '';
    assert.match(text, /Restore shop-1 from the snapshot “golden”/);
    assert.match(text, /Everything written on its boot disk since then is lost: files, installed software and settings/);
    assert.match(text, /shut down, restored and started again/);
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(simulator(app).snapshots.held.get(`snap-${s!.id}`)!.restores, 0);
    await golden.getByRole('button', { name: 'Restore' }).click();
    await dialog.getByRole('button', { name: 'Yes, restore' }).click();
    await card.getByRole('status').filter({ hasText: 'VM is being restored' }).waitFor();
    await eventually(async () => {
      await vmJobsDone(app);
      const vm = await getVm(app, c.cookie, id);
      return vm.status === 'Running' && vm.pending_action === null;
    }, 20_000);
    assert.equal(simulator(app).snapshots.held.get(`snap-${s!.id}`)!.restores, 1);

    // a new VM from it, on a size whose disk holds it
    await golden.getByRole('button', { name: 'New VM' }).click();
    const form = card.getByRole('form', { name: 'New VM from golden' });
    await form.getByLabel('Name of the new VM').fill('shop-copy');
    await form.getByLabel(/^gp\.medium/).check();
    await form.getByRole('button', { name: 'Create VM' }).click();
    await page.getByRole('heading', { name: 'shop-copy', level: 1 }).waitFor();
    const copy = await queryRows<{ id: number; source_snapshot_id: number; disk_gb: number }>(app.container.db, sql`select id, source_snapshot_id, disk_gb from vms where name = 'shop-copy' and customer_id = ${c.id}`);
    assert.deepEqual(copy.map((v) => [v.source_snapshot_id, v.disk_gb]), [[s!.id, 50]]);
    await vmJobsDone(app);
    await page.goto(`/vms/${id}`);

    await page.reload();
    await golden.getByRole('button', { name: 'Delete' }).and(page.locator(':not([disabled])')).waitFor();
    await golden.getByRole('button', { name: 'Delete' }).click();
    const del = page.getByRole('alertdialog', { name: 'Delete' });
    assert.match((await del.textContent()) ?? '', /Delete the snapshot “golden”\? It cannot be restored afterwards/);
    await del.getByRole('button', { name: 'Yes, delete' }).click();
    await eventually(async () => {
      await vmJobsDone(app);
      return (await snapshotsOf(id))[0]!.status === 'Deleted';
    }, 20_000);
    await card.getByText('Nothing here yet.').waitFor({ timeout: 20_000 });
    await ctx.close();
  });

  test('staff see the snapshots on the VM page; with operate_compute they restore on the customer’s behalf, who is told', async () => {
    const { c, id } = await runningVm('support-vm');
    const made = await app.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/snapshots`, headers: { cookie: c.cookie }, payload: { name: 'nightly' } });
    assert.equal(made.statusCode, 201, made.body);
    await vmJobsDone(app);

    const viewer = await createAdmin(app, { permissions: ['view_compute'] });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, viewer.email, viewer.password);
    await page.goto(`/backoffice/vms/${id}`);
    const card = page.getByRole('region', { name: 'Snapshots', exact: true });
    await card.getByRole('row').filter({ hasText: 'nightly' }).getByText('Available').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Restore' }).count(), 0, 'viewing only: no restore');
    await ctx.close();

    const operator = await createAdmin(app, { permissions: ['view_compute', 'operate_compute'] });
    const ctx2 = await app.context();
    const page2 = await ctx2.newPage();
    await staffLogin(page2, operator.email, operator.password);
    await page2.goto(`/backoffice/vms/${id}`);
    const card2 = page2.getByRole('region', { name: 'Snapshots', exact: true });
    await card2.getByRole('button', { name: 'Restore' }).click();
    const dialog = page2.getByRole('alertdialog', { name: 'Restore' });
    assert.match((await dialog.textContent()) ?? '', /is told in the app and by e-mail/);
    await dialog.getByRole('button', { name: 'Yes, restore' }).click();
    await card2.getByRole('status').filter({ hasText: 'VM is being restored' }).waitFor();
    await eventually(async () => {
      await vmJobsDone(app);
      return (await getVm(app, c.cookie, id)).pending_action === null;
    }, 20_000);
    const told = await queryRows<{ title: string }>(app.container.db, sql`select title from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION'`);
    assert.deepEqual(told.map((n) => n.title), ['Your VM support-vm was restored from a snapshot by our team']);
    await ctx2.close();
  });
});

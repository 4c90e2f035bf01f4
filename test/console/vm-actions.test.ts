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

/** Waits until the click's request has reached the API and its datacenter work is done: the VM is as `check` wants it. */
async function settled(cookie: string, id: number, check: (vm: { status: string; os: string; rescue: boolean; name: string; pending_action: string | null }) => boolean) {
  await eventually(async () => {
    await vmJobsDone(app);
    return check(await getVm(app, cookie, id));
  }, 20_000);
}

describe('VM actions in the console', () => {
  test('a customer renames, reboots, rescues and rebuilds a VM; each asks first, and the rebuild names what is lost', async () => {
    const { c, id } = await runningVm('shop-1');
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${id}`);
    const manage = page.getByRole('region', { name: 'Manage' });
    await manage.waitFor();

    await manage.getByLabel('Name').fill('shop-2');
    await manage.getByRole('button', { name: 'Rename' }).click();
    await manage.getByRole('status').filter({ hasText: 'Renamed.' }).waitFor();
    await page.getByRole('heading', { name: 'shop-2', level: 1 }).waitFor();

    await manage.getByRole('button', { name: 'Reboot', exact: true }).click();
    const reboot = page.getByRole('alertdialog', { name: 'Reboot' });
    await reboot.getByRole('button', { name: 'Yes, reboot' }).click();
    await reboot.waitFor({ state: 'detached' });
    await settled(c.cookie, id, (vm) => vm.status === 'Running' && vm.pending_action === null);

    // rescue, then leave it
    await manage.getByRole('button', { name: 'Rescue', exact: true }).click();
    const rescue = page.getByRole('alertdialog', { name: 'Rescue' });
    assert.match((await rescue.textContent()) ?? '', /Its disks are attached so you can repair them; sign in with your SSH keys/);
    await rescue.getByRole('button', { name: 'Yes, rescue' }).click();
    await manage.getByText('This VM boots the rescue system').waitFor();
    await settled(c.cookie, id, (vm) => vm.rescue && vm.pending_action === null);
    await manage.getByRole('button', { name: 'Leave rescue' }).click();
    await page.getByRole('alertdialog', { name: 'Leave rescue' }).getByRole('button', { name: 'Yes, leave rescue' }).click();
    await manage.getByRole('button', { name: 'Rescue', exact: true }).waitFor();
    await settled(c.cookie, id, (vm) => !vm.rescue && vm.status === 'Running');

    // the rebuild: No changes nothing; Yes reinstalls with the chosen OS
    await manage.getByLabel('Operating system to install').selectOption('debian-12');
    await manage.getByRole('button', { name: 'Rebuild' }).click();
    const rebuild = page.getByRole('alertdialog', { name: 'Rebuild' });
    const text = (await rebuild.textContent()) ?? '';
    assert.match(text, /Reinstall shop-2 with debian-12\?/);
    assert.match(text, /Everything on its boot disk is lost: files, installed software and settings/);
    await rebuild.getByRole('button', { name: 'No' }).click();
    await rebuild.waitFor({ state: 'detached' });
    assert.equal((await getVm(app, c.cookie, id)).os, 'ubuntu-24.04', 'No rebuilds nothing');
    await manage.getByRole('button', { name: 'Rebuild' }).click();
    await rebuild.getByRole('button', { name: 'Yes, rebuild' }).click();
    await page.getByRole('definition').filter({ hasText: /^debian-12$/ }).waitFor();
    await settled(c.cookie, id, (vm) => vm.os === 'debian-12' && vm.status === 'Running' && vm.pending_action === null);

    const actions = await queryRows<{ action: string }>(app.container.db, sql`select action from audit_logs where actor_type = 'customer' and actor_id = ${c.id} and target_id = ${String(id)} order by id`);
    assert.deepEqual(
      actions.map((a) => a.action).filter((a) => a !== 'vm.created' && a.startsWith('vm.')),
      ['vm.renamed', 'vm.rebooted', 'vm.rescued', 'vm.unrescued', 'vm.rebuilt'],
    );
    await ctx.close();
  });

  test('staff holding operate_compute get the buttons on the VM page and the customer is told; staff who only view do not', async () => {
    const { c, id } = await runningVm('support-vm');
    const operator = await createAdmin(app, { permissions: ['view_compute', 'operate_compute', 'view_tiers'] });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, operator.email, operator.password);
    await page.goto(`/backoffice/vms/${id}`);
    const act = page.getByRole('region', { name: 'Act on this VM' });
    await act.getByRole('button', { name: 'Stop' }).click();
    const stop = page.getByRole('alertdialog', { name: 'Stop' });
    assert.match((await stop.textContent()) ?? '', /is told in the app and by e-mail/);
    await stop.getByRole('button', { name: 'Yes, stop' }).click();
    await settled(c.cookie, id, (vm) => vm.status === 'Stopped');
    await page.reload();
    await act.getByRole('button', { name: 'Start' }).and(page.locator(':not([disabled])')).waitFor();
    await act.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('alertdialog', { name: 'Start' }).getByRole('button', { name: 'Yes, start' }).click();
    await settled(c.cookie, id, (vm) => vm.status === 'Running');
    const told = await queryRows<{ title: string }>(app.container.db, sql`select title from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION' order by id`);
    assert.deepEqual(told.map((n) => n.title), ['Your VM support-vm was stopped by our team', 'Your VM support-vm was started by our team']);

    // staff who may not read the tier list: signed in before the customer resizes
    const viewer = await createAdmin(app, { permissions: ['view_compute'] });
    const ctx2 = await app.context();
    const page2 = await ctx2.newPage();
    await staffLogin(page2, viewer.email, viewer.password);
    await page2.goto(`/backoffice/vms/${id}`);
    await page2.getByRole('heading', { name: 'Addresses' }).waitFor();
    assert.equal(await page2.getByRole('region', { name: 'Act on this VM' }).count(), 0);

    // the customer resizes; while the datacenter works the staff page says where the VM is going
    const medium = await seededTier(app, 'gp.medium');
    simulator(app).hosts.delayMs = 1500;
    const resized = await app.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/resize`, headers: { cookie: c.cookie }, payload: { tier_id: medium } });
    assert.equal(resized.statusCode, 200, resized.body);
    await Promise.all([page.reload(), page2.reload()]);
    const target = page.getByRole('status', { name: 'Resizing' });
    await target.waitFor();
    assert.match((await target.textContent()) ?? '', /^Resizing to gp\.medium: 2 vCPU, 4 GB RAM, 50 GB disk\./);
    // without the tier list, the target by its number
    const numbered = page2.getByRole('status', { name: 'Resizing' });
    assert.match((await numbered.textContent()) ?? '', new RegExp(`^Resizing to tier ${medium}\\.`));
    simulator(app).hosts.delayMs = 0;
    await settled(c.cookie, id, (vm) => vm.pending_action === null);
    await page.reload();
    await page.getByText(/^gp\.medium: 2 vCPU, 4 GB RAM, 50 GB disk$/).waitFor();
    assert.equal(await target.count(), 0, 'nothing once it is done');
    await ctx.close();
    await ctx2.close();
  });
});

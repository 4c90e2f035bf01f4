import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { createAdmin, loginAdmin } from '../helpers/admins.js';
import { queueDrained } from '../helpers/app.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { postData } from '../helpers/http.js';

let app: ConsoleApp;
let cookie: string;
const vm: Record<'webA' | 'webB' | 'db', number> = { webA: 0, webB: 0, db: 0 };

/** A customer with two VMs of a size that can be load balanced (gp.small) and one that cannot (gp.medium). */
before(async () => {
  app = await startConsoleApp();
  const c = await customerSession(app);
  cookie = c.cookie;
  await fund(app, c.id);
  const balanced = await seededTier(app, 'gp.small');
  await app.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, balanced);
  const plain = await seededTier(app, 'gp.medium');
  for (const [key, name, tier] of [['webA', 'web-a', balanced], ['webB', 'web-b', balanced], ['db', 'db-1', plain]] as const) {
    const res = await createVm(app, cookie, { name, location_id: 1, tier_id: tier });
    assert.equal(res.statusCode, 201, res.body);
    vm[key] = res.json().data.id;
  }
  await vmJobsDone(app);
});
after(() => app?.close());

async function signedIn(): Promise<Page> {
  const ctx = await app.context();
  await useSession(ctx, app.base, cookie);
  return ctx.newPage();
}

const optionsOf = async (page: Page, label: string) => (await page.getByLabel(label).locator('option').allTextContents()).filter((o) => o !== 'Choose' && o !== 'Choose a VM');
/** The confirm step takes the focus in an effect after it is drawn, so wait for the focus rather than look once. */
const focusedInside = (page: Page, testId: string) =>
  page
    .waitForFunction((id) => !!document.activeElement?.contains(document.querySelector(`[data-testid="${id}"]`)), testId, { timeout: 5000 })
    .then(() => true, () => false);

describe('the customer console forms', () => {
  test('a security group rule: the type fills in its port, ICMP asks for none, and the table says Inbound', async () => {
    const group = await postData(app, cookie, '/api/network/security-group', { name: 'web', location_id: 1 });
    const page = await signedIn();
    await page.goto(`/security-groups/${group.uuid}`);
    const type = page.getByLabel('Type');
    await type.selectOption({ label: 'HTTPS (TCP 443)' });
    assert.equal(await page.getByLabel('Port from').inputValue(), '443');
    await type.selectOption({ label: 'ICMP' });
    assert.equal(await page.getByLabel('Port from').count(), 0);
    await page.getByText('ICMP has no ports.').waitFor();
    await type.selectOption({ label: 'SSH (TCP 22)' });
    assert.equal(await page.getByLabel('Port from').inputValue(), '22');
    await page.getByLabel('Direction').selectOption({ label: 'Inbound' });
    await page.getByRole('button', { name: 'Add rule' }).click();
    const row = page.getByRole('table', { name: 'Rules' }).getByRole('row').nth(1);
    await row.getByRole('cell', { name: 'SSH' }).waitFor();
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 4), ['Inbound', 'SSH', '22', '0.0.0.0/0']);
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.context().close();
  });

  test("a rule type's port set by staff in the backoffice is the one the customer's form fills in", async () => {
    const admin = await createAdmin(app);
    const staff = await app.context();
    await useSession(staff, app.base, await loginAdmin(app, admin.email, admin.password));
    const office = await staff.newPage();
    await office.goto('/backoffice/settings');
    const form = office.locator('form', { has: office.getByLabel('Default port (tcp, udp)') });
    await form.getByLabel('Name').fill('PostgreSQL');
    await form.getByLabel('Protocol').selectOption('tcp');
    await form.getByLabel('Description').fill('Database');
    await form.getByLabel('Default port (tcp, udp)').fill('5432');
    await form.getByRole('button', { name: 'Add' }).click();
    const row = office.getByRole('table', { name: 'Firewall rule types' }).getByRole('row', { name: /PostgreSQL/ });
    await row.waitFor();
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 3), ['PostgreSQL', 'tcp', '5432']);
    await staff.close();

    const group = await postData(app, cookie, '/api/network/security-group', { name: 'db', location_id: 1 });
    const page = await signedIn();
    await page.goto(`/security-groups/${group.uuid}`);
    await page.getByLabel('Type').selectOption({ label: 'PostgreSQL (TCP 5432)' });
    assert.equal(await page.getByLabel('Port from').inputValue(), '5432');
    await page.context().close();
  });

  test('load balancer targets: only VMs of a size that can be balanced are offered, at create and after; the sizes are named', async () => {
    const page = await signedIn();
    await page.goto('/load-balancers');
    await page.getByLabel('Name').fill('front');
    await page.getByLabel('Location').selectOption({ index: 1 });
    const targets = page.getByRole('group', { name: 'Targets (optional)' });
    await targets.getByText('Only VMs of these sizes can be targets: gp.small.').waitFor();
    assert.deepEqual((await targets.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.nextElementSibling?.textContent ?? ''))).sort(), ['web-a', 'web-b']);
    await targets.getByLabel('web-a').check();
    await page.getByRole('button', { name: 'Create load balancer' }).click();
    await page.getByRole('heading', { name: 'front', level: 1 }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'web-a' }).waitFor();
    // the balancer was made with its target in one request
    const [made] = (await app.app.inject({ method: 'GET', url: '/api/network/load-balancer', headers: { cookie } })).json().data;
    assert.deepEqual(made.target_vm_ids, [vm.webA]);

    await page.getByText('Only VMs of these sizes can be targets: gp.small.').waitFor();
    assert.deepEqual(await optionsOf(page, 'Add a VM'), ['web-b']);
    await page.getByLabel('Add a VM').selectOption({ label: 'web-b' });
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByRole('listitem').filter({ hasText: 'web-b' }).waitFor();
    await page.getByText('No other VM here can be a target.').waitFor();
    assert.deepEqual(await optionsOf(page, 'Add a VM'), []);
    assert.equal(await page.getByRole('alert').count(), 0);

    // the VM create page says which sizes a balancer can use
    await page.goto('/vms/new');
    await page.getByLabel('Location').selectOption({ index: 1 });
    await page.getByText('Only VMs of the sizes marked “load balancing” can receive traffic from a load balancer.').waitFor();
    assert.match((await page.locator('label', { hasText: 'gp.small' }).textContent()) ?? '', /load balancing/);
    assert.doesNotMatch((await page.locator('label', { hasText: 'gp.medium' }).textContent()) ?? '', /load balancing/);
    await page.context().close();
  });

  test('creating a VM: the storage size shows only with a storage tier, and "Review the price" takes the focus to the price', async () => {
    const page = await signedIn();
    await page.goto('/vms/new');
    await page.getByLabel('Location').selectOption({ index: 1 });
    await page.getByLabel(/gp\.small/).check();
    await page.getByLabel('Name').fill('web-c');
    const storage = page.getByLabel('Block storage (optional)');
    assert.equal(await storage.inputValue(), '');
    assert.equal(await page.getByLabel('Block storage size (GB)').count(), 0, 'no size while storage is None');
    await storage.selectOption({ index: 1 });
    await page.getByLabel('Block storage size (GB)').fill('30');
    await storage.selectOption({ label: 'None' });
    assert.equal(await page.getByLabel('Block storage size (GB)').count(), 0);
    await storage.selectOption({ index: 1 });
    await page.getByLabel('Block storage size (GB)').fill('30');
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByTestId('price').waitFor();
    assert.ok(await focusedInside(page, 'price'), 'the focus moved to the confirm step');
    assert.match((await page.getByTestId('price').textContent()) ?? '', /plus storage/);
    await page.getByRole('button', { name: 'Change' }).click();
    await storage.selectOption({ label: 'None' });
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByTestId('price').waitFor();
    assert.ok(await focusedInside(page, 'price'));
    assert.doesNotMatch((await page.getByTestId('price').textContent()) ?? '', /storage/);
    await page.context().close();
  });

  test('"Assign a VM" offers the running and stopped VMs that are not on the network yet', async () => {
    const network = await postData(app, cookie, '/api/network/private', { name: 'backend', location_id: 1, cidr: 24 });
    await queueDrained(app);
    await postData(app, cookie, `/api/network/private/${network.uuid}/assign`, { instance_id: vm.webA, instance_type: 'VM' });
    const page = await signedIn();
    await page.goto(`/networks/${network.uuid}`);
    await page.getByRole('table', { name: 'Assigned addresses' }).getByRole('row').nth(1).waitFor();
    assert.deepEqual((await optionsOf(page, 'Assign a VM')).sort(), ['db-1', 'web-b']);
    await page.getByLabel('Assign a VM').selectOption({ label: 'web-b' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByRole('table', { name: 'Assigned addresses' }).getByRole('row').nth(2).waitFor();
    assert.deepEqual(await optionsOf(page, 'Assign a VM'), ['db-1']);
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.context().close();
  });
});

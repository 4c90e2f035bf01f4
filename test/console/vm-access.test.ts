import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import sshpk from 'sshpk';
import { findings, open, report, VIEWPORTS, type Violation } from '../helpers/axe.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { fund, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
let cookie: string;
before(async () => {
  app = await startConsoleApp();
  const c = await customerSession(app);
  cookie = c.cookie;
  await fund(app, c.id);
});
after(() => app?.close());

function keyPair(): { line: string; fingerprint: string } {
  const { publicKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  return { line: `${key.toString('ssh')} me@laptop`, fingerprint: key.fingerprint('sha256').toString() };
}

async function signedIn(width?: number): Promise<Page> {
  const ctx = await app.context(width ? { width } : {});
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base });
  await useSession(ctx, app.base, cookie);
  return ctx.newPage();
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('getting into a VM from the console', () => {
  test('SSH keys: add one (its fingerprint shown), refuse a private key, rename one, delete one', async () => {
    const page = await signedIn();
    await page.goto('/');
    await page.getByRole('link', { name: 'SSH keys' }).click();
    await page.getByRole('heading', { name: 'SSH keys', level: 1 }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('stolen');
    await page.getByLabel('Public key').fill('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----');
    await page.getByRole('button', { name: 'Add key' }).click();
    await page.getByRole('alert').filter({ hasText: /private key/ }).waitFor();

    const laptop = keyPair();
    await page.getByLabel('Name', { exact: true }).fill('laptop');
    await page.getByLabel('Public key').fill(laptop.line);
    await page.getByRole('button', { name: 'Add key' }).click();
    await row(page, laptop.fingerprint).filter({ hasText: 'laptop' }).waitFor();
    assert.equal(await page.getByLabel('Public key').inputValue(), '', 'the form is emptied for the next key');

    const spare = keyPair();
    await page.getByLabel('Name', { exact: true }).fill('spare');
    await page.getByLabel('Public key').fill(spare.line);
    await page.getByRole('button', { name: 'Add key' }).click();
    await row(page, spare.fingerprint).waitFor();

    await page.getByRole('button', { name: 'Rename laptop' }).click();
    await page.getByLabel('New name for laptop').fill('work laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await row(page, 'work laptop').filter({ hasText: laptop.fingerprint }).waitFor();

    await page.getByRole('button', { name: 'Delete spare' }).click();
    await page.getByRole('button', { name: 'Yes, delete spare' }).click();
    await row(page, spare.fingerprint).waitFor({ state: 'detached' });

    const listed = await app.app.inject({ method: 'GET', url: '/api/ssh-keys', headers: { cookie } });
    assert.deepEqual(listed.json().data.map((k: { name: string; fingerprint: string }) => [k.name, k.fingerprint]), [['work laptop', laptop.fingerprint]]);
  });

  test('create a VM with a key and user data, warned without a key; its page tells how to connect', async () => {
    const page = await signedIn();
    await page.goto('/vms/new');
    await page.getByLabel('Location').selectOption({ index: 1 });
    await page.getByLabel(/gp\.small/).check();
    await page.getByLabel('Name', { exact: true }).fill('web-1');
    await page.getByLabel('Operating system').selectOption({ label: 'Debian 12 (log in as debian)' });
    const key = page.getByLabel(/work laptop/);
    assert.equal(await key.isChecked(), true, 'the only key is chosen for the customer');

    // without a key the VM would be unreachable: the confirm step says so
    await key.uncheck();
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByText('No SSH key chosen').waitFor();
    await page.getByRole('button', { name: 'Change' }).click();
    await key.check();

    // user data is tucked away until asked for; what cloud-init would not read is refused
    assert.equal(await page.getByLabel('Cloud-init user data').isVisible(), false);
    await page.getByText('User data (optional)').click();
    await page.getByLabel('Cloud-init user data').fill('apt-get install nginx');
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByText('SSH keys: work laptop; with user data.').waitFor();
    await page.getByRole('button', { name: 'Create the VM' }).click();
    await page.getByRole('alert').filter({ hasText: /User data: must start with "#cloud-config"/i }).waitFor();

    const userData = '#cloud-config\npackages:\n  - nginx\n';
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('Cloud-init user data').fill(userData);
    await page.getByRole('button', { name: 'Review the price' }).click();
    await page.getByRole('button', { name: 'Create the VM' }).click();
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    await vmJobsDone(app);
    await page.locator('.badge', { hasText: 'Running' }).waitFor();

    const vm = (await app.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie } })).json().data[0];
    assert.equal(simulator(app).vmHosts.stateOf(`vm-${vm.id}`)?.userData, userData);
    assert.equal(simulator(app).vmHosts.stateOf(`vm-${vm.id}`)?.sshKeys.length, 1);

    const connect = page.getByRole('region', { name: 'Connect' });
    assert.equal(await connect.getByTestId('ssh-command').textContent(), `ssh debian@${vm.public_ip}`);
    await connect.getByText('work laptop').waitFor();
    await connect.getByText('Given at creation').waitFor();
    await connect.getByRole('button', { name: 'Copy the SSH command' }).click();
    await connect.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `ssh debian@${vm.public_ip}`);
  });

  test('the new screens have no serious axe finding at either width, with the rename form and the user data open', async () => {
    const vm = (await app.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie } })).json().data[0];
    const found: Violation[] = [];
    for (const width of VIEWPORTS) {
      const page = await signedIn(width);
      await open(page, '/ssh-keys');
      await page.getByRole('button', { name: 'Rename work laptop' }).click();
      await page.getByLabel('New name for work laptop').waitFor();
      found.push(...(await findings(page, '/ssh-keys (rename)', width)));
      await open(page, `/vms/${vm.id}`);
      await page.getByRole('region', { name: 'Connect' }).waitFor();
      found.push(...(await findings(page, `/vms/${vm.id}`, width)));
      await open(page, '/vms/new');
      await page.getByLabel('Location').selectOption({ index: 1 });
      await page.getByLabel(/gp\.small/).check();
      await page.getByText('User data (optional)').click();
      await page.getByLabel('Cloud-init user data').waitFor();
      found.push(...(await findings(page, '/vms/new (keys and user data)', width)));
      await page.context().close();
    }
    assert.deepEqual(report(found), []);
  });
});

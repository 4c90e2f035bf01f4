/**
 * The VM console in Chromium against a REAL guest (DATACENTER=libvirt, the small test guest of
 * scripts/build-guest-image.sh, its shell on ttyS0): a customer opens the console from the VM page,
 * types a command and sees its output. Runs where libvirt answers on qemu:///system as root;
 * elsewhere it is skipped with the reason, except under CI=true, where a missing libvirt fails.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { libvirtAvailable, removeEverything, testSetup, withLibvirtLock, type TestSetup } from '../../src/integrations/datacenter/libvirt/test-support.js';
import { eventually } from '../helpers/app.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, getVm, seededTier } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';
import { openConsole } from '../helpers/vm-console.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

describe('the VM console in the browser against a real guest (DATACENTER=libvirt)', { skip }, () => {
  let setup: TestSetup;
  let app: ConsoleApp | undefined;

  before(async () => {
    setup = testSetup();
    setup.input.images = { 'debian-12': setup.input.images.test ?? setup.input.images['debian-12']! };
    const config = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
    writeFileSync(config, JSON.stringify(setup.input));
    app = await startConsoleApp({ env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: config } });
  });

  after(async () => {
    await app?.close();
    if (setup) removeEverything(setup);
  });

  test("a customer types a command on the guest's serial console and sees its output", () => withLibvirtLock('shared', async () => {
    const c = await customerSession(app!);
    await fund(app!, c.id);
    const vm = (await createVm(app!, c.cookie, { name: 'real-term', location_id: 1, tier_id: await seededTier(app!), os: 'debian-12', public_ip: false })).json().data;
    await eventually(async () => (await getVm(app!, c.cookie, vm.id)).status === 'Running', 240_000, 500);
    const ctx = await app!.context();
    await useSession(ctx, app!.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto(`/vms/${vm.id}`);
    await page.getByRole('heading', { name: 'real-term', level: 1 }).waitFor();
    const terminal = await openConsole(page, 'real-term');
    // the guest's getty may still be starting: Enter until its prompt shows
    const prompt = terminal.getByText(`root@vm-${vm.id}:/#`).first();
    await eventually(async () => {
      await page.keyboard.press('Enter');
      return prompt.waitFor({ timeout: 1000 }).then(() => true, () => false);
    }, 60_000, 0);
    await page.keyboard.type('echo real-$((6*7))');
    await page.keyboard.press('Enter');
    await terminal.getByText(/^\s*real-42\s*$/).first().waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Close console' }).click();
    await ctx.close();
    assert.equal((await app!.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.id}`, headers: { cookie: c.cookie } })).statusCode, 200);
    await eventually(async () => (await getVm(app!, c.cookie, vm.id)).status === 'Deleted', 120_000, 500);
  }));
});

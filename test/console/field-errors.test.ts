import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('an error about a field of a form', () => {
  test('names the field as the form does, not by its API name', async () => {
    const c = await customerSession(app);
    await fund(app, c.id);
    const tier = await seededTier(app, 'gp.small');
    await app.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, tier);
    const res = await createVm(app, c.cookie, { name: 'web-a', location_id: 1, tier_id: tier });
    assert.equal(res.statusCode, 201, res.body);
    await vmJobsDone(app);

    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto('/load-balancers');
    await page.getByLabel('Name').fill('front');
    await page.getByLabel('Location').selectOption({ index: 1 });
    const targets = page.getByRole('group', { name: 'Targets (optional)' });
    await targets.getByLabel('web-a').check();
    // meanwhile staff turn load balancing off for the VM's size: the API refuses the target
    await app.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, tier);
    await page.getByRole('button', { name: 'Create load balancer' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    assert.match(text, /Targets \(optional\): the tier gp\.small of VM \d+ does not allow load balancing/);
    assert.doesNotMatch(text, /target_vm_ids/);
    await ctx.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdmin } from '../helpers/admins.js';
import { sql } from 'drizzle-orm';
import { mailedLink, screenshot, staffLogin, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { fund, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('a team in the console', () => {
  test('the owner invites a technical member, who creates a VM but cannot see invoices; removed, their next request fails', async () => {
    const owner = await customerSession(app, { email: 'olivia.owner@example.test', firstName: 'Olivia', lastName: 'Owner' });
    await fund(app, owner.id);
    const tech = await customerSession(app, { email: 'theo.tech@example.test', firstName: 'Theo', lastName: 'Tech' });

    // the owner invites Theo as technical from the Team page
    const ownerCtx = await app.context();
    await useSession(ownerCtx, app.base, owner.cookie);
    const o = await ownerCtx.newPage();
    await o.goto('/');
    await o.getByRole('link', { name: 'Team' }).click();
    await o.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await o.getByLabel('E-mail address').fill(tech.email);
    await o.getByLabel('Role', { exact: true }).selectOption('technical');
    await o.getByRole('button', { name: 'Invite' }).click();
    await o.getByRole('status').filter({ hasText: `Invitation sent to ${tech.email}` }).waitFor();
    await o.getByRole('region', { name: 'Open invitations' }).getByText(tech.email).waitFor();

    // Theo opens the mailed link, signed in with his own login, accepts and opens the account
    const link = await mailedLink(app, tech.email, /invited you/);
    const techCtx = await app.context();
    await useSession(techCtx, app.base, tech.cookie);
    const m = await techCtx.newPage();
    await m.goto(link.replace(app.base, ''));
    await m.getByText('as technical').waitFor();
    await m.getByRole('button', { name: 'Accept the invitation' }).click();
    await m.getByRole('button', { name: 'Open that account' }).click();
    await m.getByText('You work in the account of Olivia Owner as technical').waitFor();
    const nav = m.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Virtual machines' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Billing' }).count(), 0, 'no billing for a technical member');
    assert.equal(await nav.getByRole('link', { name: 'Team' }).count(), 0);
    assert.equal(await m.getByLabel('Account').inputValue(), String(owner.id), 'the switcher shows the account acted on');

    // he creates a VM in the owner's account
    await nav.getByRole('link', { name: 'Virtual machines' }).click();
    await m.getByRole('link', { name: 'Create a VM' }).click();
    await m.getByLabel('Location').selectOption({ index: 1 });
    await m.getByLabel(/gp\.small/).check();
    await m.getByLabel('Name').fill('theo-vm');
    await m.getByRole('button', { name: 'Review the price' }).click();
    await m.getByRole('button', { name: 'Create the VM' }).click();
    await m.getByRole('heading', { name: 'theo-vm' }).waitFor();
    await vmJobsDone(app);
    const vms = (await app.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: owner.cookie } })).json().data;
    assert.deepEqual(vms.map((v: { name: string }) => v.name), ['theo-vm'], 'the VM is the account\'s');

    // invoices are not his to see, even by address
    await m.goto('/billing');
    await m.getByRole('alert').filter({ hasText: /does not allow this/ }).first().waitFor();

    // support sees the account's members and roles on the customer page
    const support = await createAdmin(app, { role: 'Admin Support' });
    const staff = await (await app.context()).newPage();
    await staffLogin(staff, support.email, support.password);
    await staff.goto(`/backoffice/customers/${owner.id}`);
    const members = staff.getByRole('region', { name: 'Team members' });
    await members.getByRole('row').filter({ hasText: tech.email }).filter({ hasText: 'technical' }).waitFor();
    await members.getByRole('row').filter({ hasText: owner.email }).filter({ hasText: 'owner' }).waitFor();

    // the owner sees who did it, and removes him
    await o.reload();
    await o.getByRole('region', { name: 'Account activity' }).getByRole('row').filter({ hasText: 'vm.created' }).filter({ hasText: tech.email }).waitFor();
    // and when he started acting on the account
    await o.getByRole('region', { name: 'Account activity' }).getByRole('row').filter({ hasText: 'Switched to this account (member.switched_in)' }).filter({ hasText: tech.email }).waitFor();
    await o.getByRole('button', { name: `Remove ${tech.email}` }).click();
    await o.getByRole('button', { name: `Yes, remove ${tech.email}` }).click();
    await o.getByRole('region', { name: 'Members', exact: true }).getByText(tech.email, { exact: true }).waitFor({ state: 'detached' });

    // his next request fails: the console sends him to the login page
    const res = await app.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: tech.cookie } });
    assert.equal(res.statusCode, 401);
    await m.goto('/vms');
    await m.waitForURL(/\/login/);
  });

  test('the owner closes an emptied account from the settings, after a confirmation; a member keeps their own account; staff see it closed', async () => {
    const owner = await customerSession(app, { email: 'carla.closer@example.test', firstName: 'Carla', lastName: 'Closer' });
    const member = await customerSession(app, { email: 'mick.member@example.test' });
    const invited = await app.app.inject({ method: 'POST', url: '/api/members/invitations', headers: { cookie: owner.cookie }, payload: { email: member.email, role: 'read_only' } });
    assert.equal(invited.statusCode, 201, invited.body);
    const token = new URL(await mailedLink(app, member.email, /invited you/)).searchParams.get('token');
    assert.equal((await app.app.inject({ method: 'POST', url: '/api/invitations/accept', headers: { cookie: member.cookie }, payload: { token } })).statusCode, 200);
    // the owner's wallet is in debt: that stands in the way first
    await app.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${owner.id}, -100, -100)
      on conflict (customer_id) do update set actual_balance = -100, current_balance = -100`);

    const ctx = await app.context();
    await useSession(ctx, app.base, owner.cookie);
    const o = await ctx.newPage();
    await o.goto('/account');
    const card = o.getByRole('region', { name: 'Close this account' });
    await card.getByText('The balance is negative: top up to settle it first').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Close the account' }).count(), 0);

    await app.container.db.execute(sql`update wallets set actual_balance = 0, current_balance = 0 where customer_id = ${owner.id}`);
    await o.reload();
    await card.getByLabel('Password').fill(owner.password);
    await card.getByLabel("Type the account's e-mail address to confirm").fill(owner.email);
    await card.getByRole('button', { name: 'Close the account' }).click();
    const dialog = o.getByRole('alertdialog', { name: 'Close the account' });
    assert.match((await dialog.textContent()) ?? '', /Close the account of Carla Closer for good\? Every member loses access to it at once\./);
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await app.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: owner.cookie } })).statusCode, 200, 'No closes nothing');
    await card.getByRole('button', { name: 'Close the account' }).click();
    await dialog.getByRole('button', { name: 'Yes, close the account' }).click();
    await card.getByRole('status').filter({ hasText: 'The account is closed.' }).waitFor();
    await screenshot(o, 'customer-account-closed');
    assert.equal((await app.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: owner.cookie } })).statusCode, 401);
    // the member's session still acts on their own account
    assert.equal((await app.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: member.cookie } })).statusCode, 200);
    await ctx.close();

    // signing in again: no account is left to work in, and the console says so
    const again = await app.context();
    const p = await again.newPage();
    await p.goto('/login');
    await p.getByLabel('E-mail').fill(owner.email);
    await p.getByLabel('Password').fill(owner.password);
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.getByRole('heading', { name: 'Your account is closed' }).waitFor();
    await p.getByRole('button', { name: 'Log out' }).click();
    await p.waitForURL(/\/login/);
    await again.close();

    const support = await createAdmin(app, { role: 'Admin Support' });
    const staff = await (await app.context()).newPage();
    await staffLogin(staff, support.email, support.password);
    await staff.goto(`/backoffice/customers/${owner.id}`);
    await staff.getByRole('region', { name: 'Team members' }).getByRole('status').filter({ hasText: /^Account closed by its owner on / }).waitFor();
  });
});

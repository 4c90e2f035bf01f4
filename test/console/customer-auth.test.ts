import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { mailedLink, startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createCustomer, customerSession } from '../helpers/customers.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';

const clock = new ManualClock(new Date());
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

describe('signing in through the customer console', () => {
  test('a customer with 2FA logs in with the code from the app; a wrong code shows the API message', async () => {
    const c = await createCustomer(app, { email: 'two.factor@example.test' });
    const { secret } = await enable2fa(app, clock, c.id);
    const ctx = await app.context({ width: 375 });
    const page = await ctx.newPage();
    await page.goto('/vms');
    await page.waitForURL(/\/login\?next=%2Fvms/);
    await page.getByLabel('E-mail').fill(c.email);
    await page.getByLabel('Password').fill(c.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    const code = page.getByLabel('6-digit code from your authenticator app');
    // the code field takes the focus: the person types the code at once
    await code.waitFor();
    assert.ok(await code.evaluate((el) => el === document.activeElement), 'the focus is on the code field');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    assert.ok(await page.getByLabel('Recovery code').evaluate((el) => el === document.activeElement), 'the focus is on the recovery code field');
    await page.getByRole('button', { name: 'Use the authenticator code' }).click();
    assert.ok(await code.evaluate((el) => el === document.activeElement));
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /code/i);
    await code.fill(nextCode(clock, secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    // back where the customer was going
    await page.getByRole('heading', { name: 'Virtual machines', level: 1 }).waitFor();
    await ctx.close();
  });

  test('forgot password: the mailed link opens the console page that sets a new one', async () => {
    const c = await createCustomer(app, { email: 'forgetful@example.test' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(c.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(/a link to choose a new password is on its way/).waitFor();
    const link = await mailedLink(app, c.email, /password/i);
    assert.match(link, /\/auth\/reset-password\?token=/);
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('weak');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('Brand-New-Pass9!');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText(/Your password was changed/).waitFor();
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.getByLabel('E-mail').fill(c.email);
    await page.getByLabel('Password').fill('Brand-New-Pass9!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await ctx.close();
  });

  test('the e-mail change: code to the old address, link to the new one, confirmed in the console', async () => {
    const c = await customerSession(app, { email: 'moving@example.test' });
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto('/account');
    await page.getByRole('button', { name: 'Change my e-mail address' }).click();
    const mail = await app.smtp.waitFor(c.email, (m) => /\b\d{6}\b/.test(m.text));
    await page.getByLabel('Code we sent to your current address').fill(/\b(\d{6})\b/.exec(mail.text)![1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByLabel('New e-mail address').fill('moved@example.test');
    await page.getByRole('button', { name: 'Send the confirmation link' }).click();
    await page.getByText(/Open the link we sent to the new address/).waitFor();
    const link = await mailedLink(app, 'moved@example.test', /./);
    assert.match(link, /\/account\/change-email\/confirm\?token=/);
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await page.getByText("Your account's e-mail address is now moved@example.test.").waitFor();
    await ctx.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { mailedLink, screenshot, startConsoleApp, type ConsoleApp } from '../helpers/browser.js';

const clock = new ManualClock(new Date('2026-03-10T08:00:00Z'));
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

/** "IDR 1,234.5" → 1234.5 */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

describe('a new customer in the browser', () => {
  test('registers, verifies through the mailed link, tops up on the sandbox page, runs a VM and sees the hourly charge on the home screen', async () => {
    const ctx = await app.context();
    const page = await ctx.newPage();
    const email = 'journey@example.test';
    const password = 'Journey-Pass1!';

    await page.goto('/register');
    await page.getByLabel('First name').fill('Jo');
    await page.getByLabel('Last name').fill('Urney');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    // the link in the mail opens the console's page, whose one button activates the account
    const link = await mailedLink(app, email, /confirm/i);
    assert.match(link, /\/auth\/verify-email\?token=/);
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    await page.getByText('E-mail address confirmed').waitFor();

    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    assert.equal(amountOf(await page.getByTestId('balance').textContent()), 0);

    // top up: the sandbox gateway's page, its Pay button, back to the console with the balance credited
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByLabel('Amount').fill('500000');
    await page.getByLabel('Payment method').selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/sandbox\/pay\//);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/billing\/topup\?status=success/);
    await page.getByTestId('topup-balance').filter({ hasText: '500,000' }).waitFor();

    // a VM from the catalog, its prices shown before it is created
    await page.getByRole('link', { name: 'Virtual machines' }).click();
    await page.getByRole('link', { name: 'Create a VM' }).click();
    await page.getByLabel('Location').selectOption({ index: 1 });
    await page.getByLabel(/gp\.small/).check();
    await page.getByLabel('Name').fill('web-1');
    await page.getByRole('button', { name: 'Review the price' }).click();
    const price = await page.getByTestId('price').textContent();
    assert.match(price ?? '', /per month/);
    assert.match(price ?? '', /per hour/);
    await page.getByTestId('price').scrollIntoViewIfNeeded();
    await screenshot(page, 'customer-vm-create');
    await page.getByRole('button', { name: 'Create the VM' }).click();
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    // the status follows the datacenter without a reload
    await page.locator('.badge', { hasText: 'Running' }).waitFor();
    await screenshot(page, 'customer-vm-detail');

    await page.getByRole('link', { name: 'Home' }).click();
    const before = amountOf(await page.getByTestId('balance').filter({ hasText: '500,000' }).textContent());
    assert.equal(before, 500000);

    // an hour later the hourly job charges the VM; the home screen shows the lower balance
    clock.advance(2 * 3600_000);
    await app.container.services.charging.runHourly();
    await page.getByRole('link', { name: 'Virtual machines' }).click();
    await page.getByRole('link', { name: 'web-1' }).waitFor();
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByTestId('balance').filter({ hasNotText: '500,000' }).waitFor();
    const afterCharge = amountOf(await page.getByTestId('balance').textContent());
    assert.ok(afterCharge < before && afterCharge > 0, `balance ${afterCharge} after the charge`);
    await page.getByText('web-1').first().waitFor();
    await screenshot(page, 'customer-home');
    await ctx.close();
  });
});

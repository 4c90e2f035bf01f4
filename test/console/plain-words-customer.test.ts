import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { startConsoleApp, useSession, type ConsoleApp, visitLoggedOut } from '../helpers/browser.js';
import { createCustomer } from '../helpers/customers.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';
import { eventually } from '../helpers/app.js';
import { deposit, invoiceRow, pgoneForm, postPgone, wallet } from '../helpers/money.js';

const clock = new ManualClock(new Date('2026-03-10T08:00:00Z'));
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function login(email: string, password: string, userAgent: string): Promise<string> {
  const res = await app.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': userAgent }, payload: { email, password } });
  assert.equal(res.statusCode, 200, res.body);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

describe('the account screens speak to people, not to programmers', () => {
  test('devices by name, no badge with nothing unread, recovery codes whole on a phone and downloadable', async () => {
    const customer = await createCustomer(app);
    await login(customer.email, customer.password, SAFARI_IOS);
    const cookie = await login(customer.email, customer.password, CHROME_LINUX);
    const inf = (await app.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } })).json().data;
    assert.equal(inf.unread_count, 0);
    const { secret } = await enable2fa(app, clock, customer.id);

    const ctx = await app.context({ width: 375 });
    await useSession(ctx, app.base, cookie);
    const page = await ctx.newPage();
    await page.goto('/account');
    const devices = page.getByRole('table', { name: 'Devices' });
    await devices.getByText('Chrome on Linux').waitFor();
    await devices.getByText('Safari on iOS').waitFor();
    assert.doesNotMatch((await devices.textContent()) ?? '', /Mozilla\/5\.0/);
    assert.equal(await page.locator('.bell .count').count(), 0, 'no unread badge with nothing unread');

    const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
    await twoFactor.getByLabel('Password').fill(customer.password);
    await twoFactor.getByLabel('Current 6-digit code').fill(nextCode(clock, secret));
    await twoFactor.getByRole('button', { name: 'Continue' }).click();
    await twoFactor.getByRole('button', { name: 'New recovery codes' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    assert.equal(codes.length, 10);
    for (const c of codes) assert.match(c, /^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // each code on one line: its text has one line box
    const lines = await list.getByRole('listitem').evaluateAll((items) =>
      items.map((li) => {
        const range = document.createRange();
        range.selectNodeContents(li);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
    assert.deepEqual(lines, codes.map(() => 1));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as a text file' }).click()]);
    assert.equal(download.suggestedFilename(), 'recovery-codes.txt');
    const text = readFileSync((await download.path())!, 'utf8');
    for (const c of codes) assert.ok(text.includes(`\n${c}\n`), `${c} in the file`);
    await ctx.close();
  });

  test('a logged-out visit goes to the login page without a failed request in the browser console', async () => {
    assert.deepEqual(await visitLoggedOut(app, ['/', '/billing', '/account'], /\/login\?next=/), { failed: [], errors: [] });
  });

  test("a credited top-up's notification links its receipt in words", async () => {
    const customer = await createCustomer(app);
    const cookie = await login(customer.email, customer.password, CHROME_LINUX);
    const inv = await deposit(app, customer.id, { amount: 75000, method_code: 'BC' });
    assert.equal((await postPgone(app, pgoneForm(app, await invoiceRow(app, inv.invoice_id)))).statusCode, 200);
    await eventually(async () => (await wallet(app, customer.id))?.current_balance === '75000.00');
    const ctx = await app.context();
    await useSession(ctx, app.base, cookie);
    const page = await ctx.newPage();
    await page.goto('/notifications');
    const note = page.getByRole('listitem').filter({ hasText: 'Top-up credited' });
    await note.getByText('IDR 75,000 from your top-up by BCA Virtual Account via PG One is in your wallet.', { exact: false }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), note.getByRole('link', { name: 'Download the receipt (PDF)' }).click()]);
    assert.equal(download.suggestedFilename(), `invoice_${inv.invoice_id}.pdf`);
    assert.equal(readFileSync((await download.path())!).subarray(0, 5).toString(), '%PDF-');
    await ctx.close();
  });
});


import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

/** What has the focus: its role or tag and its text, and whether it sits in the open dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName.toLowerCase(), id: el?.id, text: el?.textContent?.trim(), inDialog: !!el?.closest('[role="alertdialog"]') };
  });

/**
 * Radix gives the focus back in a task after the dialog has left the DOM, so the dialog being
 * detached does not yet mean the focus has moved: wait for the focus itself, and name where it is
 * if it never arrives.
 */
async function focusReturnsTo(page: Page, text: string, message: string) {
  const arrived = await page
    .waitForFunction((t) => (document.activeElement as HTMLElement | null)?.textContent?.trim() === t, text, { timeout: 5000 })
    .then(() => true, () => false);
  if (!arrived) assert.fail(`${message}; the focus is on <${(await focused(page)).tag}>`);
}

describe('confirms and navigation move the focus where a keyboard user needs it', () => {
  test('a confirm is a modal dialog that takes the focus, keeps it, and gives it back to its button', async () => {
    const s = await customerSession(app);
    const sudo = await app.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } });
    const made = await app.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo.json().data.token }, payload: { name: 'laptop cli', scopes: ['account:read'] } });
    assert.equal(made.statusCode, 201, made.body);
    const ctx = await app.context();
    await useSession(ctx, app.base, s.cookie);
    const page = await ctx.newPage();
    await page.goto('/account');
    const row = page.getByRole('region', { name: 'Your tokens' }).getByRole('row', { name: /laptop cli/ });
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });

    await revoke.click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /Revoke “laptop cli”\?/);
    assert.deepEqual(await focused(page), { tag: 'button', id: (await focused(page)).id, text: 'No', inDialog: true }, 'the safe answer has the focus');
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      assert.equal((await focused(page)).inDialog, true, `the focus stays in the dialog after ${key}`);
    }
    assert.equal(await page.getByRole('button', { name: 'Revoke all tokens' }).count(), 0, 'the page behind is hidden from assistive technology');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(page, 'Revoke', 'Escape gives the focus back to the button');
    await revoke.click();
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(page, 'Revoke', '"No" gives the focus back to the button');
    await row.getByText('Active').waitFor();

    await revoke.click();
    await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText('Revoked').waitFor();
    await ctx.close();
  });

  test('after a navigation the focus is on the page, not on the link that was followed', async () => {
    const s = await customerSession(app);
    const ctx = await app.context();
    await useSession(ctx, app.base, s.cookie);
    const page = await ctx.newPage();
    await page.goto('/');
    await page.locator('main[data-path="/"]').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
    await page.locator('main[data-path="/billing"]').waitFor();
    // the shell moves the focus in an effect after the new page is drawn
    await page.waitForFunction(() => document.activeElement?.id === 'main', undefined, { timeout: 5000 }).catch(() => undefined);
    assert.deepEqual(await focused(page), { tag: 'main', id: 'main', text: (await focused(page)).text, inDialog: false });
    await ctx.close();
  });
});

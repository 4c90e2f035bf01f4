import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { totpCode } from '../../src/platform/crypto/index.js';
import { cookiesOf, createAdmin, type TestAdmin } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';
import { mailedLink, startConsoleApp, type ConsoleApp } from '../helpers/browser.js';

let app: ConsoleApp;
const t = () => app;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

/** 2FA turned on through the API, as the staff member would on My account; returns the recovery codes. */
async function withTwoFactor(a: TestAdmin): Promise<string[]> {
  const login = await app.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: a.password } });
  const cookie = Object.entries(cookiesOf(login)).map(([k, v]) => `${k}=${v}`).join('; ');
  const gen = await app.app.inject({ method: 'POST', url: '/api/backoffice/auth/2fa/generate', headers: { cookie }, payload: { password: a.password } });
  const en = await app.app.inject({ method: 'POST', url: '/api/backoffice/auth/2fa/enable', headers: { cookie }, payload: { code: totpCode(gen.json().data.secret, new Date()) } });
  assert.equal(en.statusCode, 200, en.body);
  return en.json().data.recovery_codes;
}

const focused = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((el) => el === document.activeElement);

async function passwordStep(page: Page, a: TestAdmin) {
  await page.goto('/backoffice/login');
  await page.getByLabel('E-mail').fill(a.email);
  await page.getByLabel('Password').fill(a.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('staff login and two-factor authentication in the browser', () => {
  test('after the password step the cursor is in the code field; switching to a recovery code moves it there', async () => {
    const a = await createAdmin(t(), { role: 'Admin Support' });
    const recovery = await withTwoFactor(a);
    const ctx = await app.context();
    const page = await ctx.newPage();
    await passwordStep(page, a);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    assert.equal(await focused(page, '6-digit code from your authenticator app'), true, 'the code field has the focus');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    assert.equal(await focused(page, 'Recovery code'), true, 'the recovery code field has the focus');
    // typed without clicking into the field first
    await page.keyboard.type(recovery[0]!);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await ctx.close();
  });

  test('when the owner requires 2FA of all staff, a staff member without it is led through the set-up at login, then works', async () => {
    const owner = await createAdmin(t());
    const ownerCodes = await withTwoFactor(owner);
    const staff = await createAdmin(t(), { role: 'Admin Support' });
    try {
      // the owner sets it in the backoffice settings (signed in with 2FA: the requirement does not stop them)
      const ownerCtx = await app.context();
      const op = await ownerCtx.newPage();
      await passwordStep(op, owner);
      await op.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
      await op.getByRole('button', { name: 'Use a recovery code' }).click();
      await op.getByLabel('Recovery code').fill(ownerCodes[0]!);
      await op.getByRole('button', { name: 'Verify' }).click();
      await op.getByRole('link', { name: 'Settings' }).click();
      const card = op.getByRole('region', { name: 'Staff two-factor authentication' });
      await card.getByLabel('Required for').selectOption('all_staff');
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByText('Saved.').waitFor();
      assert.equal(await t().container.services.settings.staffTwoFactorScope(), 'all_staff');
      await ownerCtx.close();

      const ctx = await app.context();
      const page = await ctx.newPage();
      await passwordStep(page, staff);
      await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
      await page.getByText('Two-factor authentication is required for your account').waitFor();
      await page.getByLabel('Your password').fill(staff.password);
      await page.getByRole('button', { name: 'Show the QR code' }).click();
      const secret = (await page.locator('p.secret').textContent())!.trim();
      await page.getByLabel('6-digit code from the app').fill(totpCode(secret, new Date()));
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      await page.getByText('Recovery codes').waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
      await ctx.close();
    } finally {
      await t().container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'nobody' });
    }
  });

  test("the roles' member counts follow a new staff member without a reload", async () => {
    const owner = await createAdmin(t());
    const ctx = await app.context();
    const page = await ctx.newPage();
    await passwordStep(page, owner);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('link', { name: 'Admins & roles' }).click();
    const header = page.getByRole('columnheader', { name: /^Admin Sales \(\d+\)$/ });
    const count = async () => Number(/\((\d+)\)/.exec((await header.textContent()) ?? '')![1]);
    const before = await count();
    await page.getByLabel('Name').fill('Sam Sales');
    await page.getByLabel('E-mail').fill(`sam-${Date.now()}@staff.test`);
    await page.getByLabel('Role', { exact: true }).selectOption('Admin Sales');
    await page.getByRole('button', { name: 'Add admin' }).click();
    await page.getByRole('cell', { name: 'Sam Sales', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: `Admin Sales (${before + 1})` }).waitFor();
    await ctx.close();
  });

  test('a new staff member opens the mailed link, chooses the password, logs in and takes up the 2FA offer', async () => {
    const owner = await createAdmin(t());
    const ownerCtx = await app.context();
    const op = await ownerCtx.newPage();
    await passwordStep(op, owner);
    await op.getByRole('button', { name: 'Skip for now' }).click();
    await op.getByRole('link', { name: 'Admins & roles' }).click();
    const email = `robin-${Date.now()}@staff.test`;
    await op.getByLabel('Name').fill('Robin Support');
    await op.getByLabel('E-mail').fill(email);
    await op.getByLabel('Role', { exact: true }).selectOption('Admin Support');
    await op.getByRole('button', { name: 'Add admin' }).click();
    await op.getByText(`A link to choose the password was e-mailed to ${email}`).waitFor();
    await ownerCtx.close();

    const link = await mailedLink(app, email, /backoffice account/);
    const ctx = await app.context();
    const page = await ctx.newPage();
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('Robin-Chosen-Pass-1!');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByText('Password set.').waitFor();
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('Robin-Chosen-Pass-1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    // no password to change: the first login goes to the 2FA offer, taken up this time
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await page.getByLabel('Your password').fill('Robin-Chosen-Pass-1!');
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const secret = (await page.locator('p.secret').textContent())!.trim();
    await page.getByLabel('6-digit code from the app').fill(totpCode(secret, new Date()));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await ctx.close();
  });

  test("a customer's session limit is labelled in words, with no field name in it", async () => {
    const owner = await createAdmin(t());
    const customer = await createCustomer(t());
    const ctx = await app.context();
    const page = await ctx.newPage();
    await passwordStep(page, owner);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.goto(`/backoffice/customers/${customer.id}`);
    const sessions = page.getByRole('region', { name: 'Device sessions' });
    await sessions.getByLabel('Most sessions at once', { exact: true }).waitFor();
    const labels = await page.locator('label').allTextContents();
    assert.deepEqual(labels.filter((l) => /\([a-z]+_[a-z_]+\)/.test(l)), [], 'no label shows a field name like (max_session)');
    await ctx.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';

const clock = new ManualClock(new Date());
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp({ clock });
});
after(() => app?.close());

type Session = Awaited<ReturnType<typeof customerSession>>;

async function apiToken(s: Session, name: string): Promise<string> {
  const sudo = await app.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } });
  const res = await app.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo.json().data.token }, payload: { name, scopes: ['account:read'] } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.token;
}

const works = async (token: string, url = '/api/inf') => (await app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).statusCode === 200;

describe('API tokens on the account page', () => {
  test('a customer lists their tokens, creates one, and revokes them all with one button', async () => {
    const s = await customerSession(app);
    const old = await apiToken(s, 'laptop cli');
    const ctx = await app.context();
    await useSession(ctx, app.base, s.cookie);
    const page = await ctx.newPage();
    await page.goto('/account');
    const tokens = page.getByRole('region', { name: 'Your tokens' });
    await tokens.getByRole('cell', { name: /laptop cli/ }).waitFor();

    await page.getByRole('button', { name: 'Create a token' }).click();
    await page.getByLabel('Token name').fill('deploy pipeline');
    await page.getByLabel('Virtual machines and SSH keys').selectOption({ label: 'Read and change' });
    await page.getByLabel('Your password').fill(s.password);
    await page.getByRole('button', { name: 'Create token', exact: true }).click();
    const secret = page.locator('.secret', { hasText: /^chp_pat_/ });
    await secret.waitFor();
    const created = (await secret.textContent())!.trim();
    assert.equal(await works(created, '/api/ssh-keys'), true);
    await tokens.getByRole('cell', { name: /deploy pipeline/ }).waitFor();
    const mail = await app.smtp.waitFor(s.email, (m) => /new API token/i.test(m.subject) && m.text.includes('deploy pipeline'));
    assert.ok(!mail.raw.includes(created.slice(12)), 'the mail never carries the secret');

    await page.getByRole('button', { name: 'Revoke all tokens' }).click();
    await page.getByRole('button', { name: 'Yes, revoke all tokens' }).click();
    await page.getByRole('status').filter({ hasText: '2 tokens revoked.' }).waitFor();
    assert.equal(await works(old), false);
    assert.equal(await works(created, '/api/ssh-keys'), false);
    await tokens.getByRole('row', { name: /deploy pipeline/ }).getByText('Revoked').waitFor();
    await tokens.getByRole('row', { name: /laptop cli/ }).getByText('Revoked').waitFor();
    assert.equal(await tokens.getByRole('button', { name: 'Revoke', exact: true }).count(), 0, 'nothing left to revoke one by one');
    await ctx.close();
  });
});

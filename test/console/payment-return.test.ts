import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { customerSession } from '../helpers/customers.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('a top-up started on one address of the service', () => {
  test('pays on the sandbox page of that address and comes back to it, still logged in', async () => {
    // PUBLIC_URL is http://127.0.0.1:PORT; the person opened the console on another address of the
    // same server, as someone does who opens http://127.0.0.1:PORT while PUBLIC_URL says localhost
    const other = app.base.replace('127.0.0.1', 'localhost');
    const customer = await customerSession(app);
    const ctx = await app.context();
    await useSession(ctx, other, customer.cookie);
    const page = await ctx.newPage();
    await page.goto(`${other}/billing`);
    await page.getByLabel('Amount').fill('150000');
    await page.getByLabel('Payment method').selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/sandbox\/pay\//);
    assert.ok(page.url().startsWith(`${other}/sandbox/pay/`), page.url());
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/billing\/topup\?status=success/);
    assert.ok(page.url().startsWith(`${other}/billing/topup`), page.url());
    // the same cookies: the console shows the credited balance, not the login page
    await page.getByTestId('topup-balance').filter({ hasText: '150,000' }).waitFor();
    await ctx.close();
  });

  test('an Origin of another site is not followed: the payment page stays on PUBLIC_URL; its own address is', async () => {
    const customer = await customerSession(app);
    const topUp = (headers: Record<string, string>) =>
      app.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: customer.cookie, host: 'localhost:3000', ...headers }, payload: { amount: 20000, gateway_name: 'pgone', method_code: 'BC' } });
    // another site's page cannot start one at all (the cross-origin rule refuses the write)
    const foreign = await topUp({ origin: 'https://evil.example' });
    assert.equal(foreign.statusCode, 403, foreign.body);
    assert.equal(foreign.json().code, 'CROSS_ORIGIN_REQUEST');
    // an opaque origin the browser vouches for as same-origin is let through, but names no address to return to
    const opaque = await topUp({ origin: 'null', 'sec-fetch-site': 'same-origin' });
    assert.equal(opaque.statusCode, 200, opaque.body);
    assert.ok(opaque.json().data.payment_url.startsWith(`${app.base}/sandbox/pay/`), opaque.json().data.payment_url);
    // the service's own address, as the browser names it: followed
    const own = await app.app.inject({
      method: 'POST',
      url: '/api/billing/deposit',
      headers: { cookie: customer.cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: { amount: 20000, gateway_name: 'pgone', method_code: 'BC' },
    });
    assert.equal(own.statusCode, 200, own.body);
    assert.ok(own.json().data.payment_url.startsWith('http://localhost:3000/sandbox/pay/'), own.json().data.payment_url);
  });
});

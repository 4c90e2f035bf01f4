import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { freePort, invoiceRow, wallet } from '../helpers/money.js';

let t: TestApp;
let base: string;

// The sandbox gateway sends its callback over HTTP to PUBLIC_URL: the app listens on a real port.
before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await buildTestApp({ env: { PUBLIC_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
});
after(() => t.close());

async function newDeposit(cookie: string, gateway: 'pgone' | 'pgtwo', method: string, amount: number) {
  const res = await fetch(`${base}/api/billing/deposit`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, method_code: method, gateway_name: gateway }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as any).data;
}

/** Reads the payment page and submits its form with the given button, like a browser. */
async function pressButton(paymentUrl: string, button: 'pay' | 'fail') {
  const pageRes = await fetch(paymentUrl);
  assert.equal(pageRes.status, 200);
  assert.match(pageRes.headers.get('content-type') ?? '', /text\/html/);
  const html = await pageRes.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  assert.ok(action, 'the page has a payment form');
  assert.match(html, new RegExp(`<button name="action" value="${button}">`));
  return { html, res: await fetch(`${base}${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${button}`, redirect: 'manual' }) };
}

describe('sandbox payment page sends a real signed callback', () => {
  for (const [gateway, method] of [
    ['pgone', 'BC'],
    ['pgtwo', 'DANA'],
  ] as const) {
    test(`${gateway}: Pay → callback over HTTP → invoice Paid → wallet credited`, async () => {
      const c = await customerSession(t);
      const d = await newDeposit(c.cookie, gateway, method, 35000);
      assert.equal(d.payment_url, `${base}/sandbox/pay/${gateway}/${d.invoice_id}`);
      const { html, res } = await pressButton(d.payment_url, 'pay');
      assert.match(html, new RegExp(d.invoice_id));
      assert.equal(res.status, 303);
      // relative: the browser stays on the address it opened the page on
      assert.equal(res.headers.get('location'), `/api/payment/redirect/${gateway}?status=success`);
      await eventually(async () => (await wallet(t, c.id))?.actual_balance === '35000.00');
      assert.equal((await invoiceRow(t, d.invoice_id)).status, 'Paid');
      // the page now says so and offers no buttons
      const after = await (await fetch(d.payment_url)).text();
      assert.match(after, /This invoice is <b>Paid<\/b>/);
      assert.doesNotMatch(after, /<form/);
      // the browser's return page
      const back = await fetch(new URL(res.headers.get('location')!, base));
      assert.equal(back.status, 200);
      assert.match(await back.text(), /Payment received/);
    });
  }

  test('Fail → invoice Failed, nothing credited', async () => {
    const c = await customerSession(t);
    const d = await newDeposit(c.cookie, 'pgone', 'SP', 20000);
    const { res } = await pressButton(d.payment_url, 'fail');
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /status=failed$/);
    assert.equal((await invoiceRow(t, d.invoice_id)).status, 'Failed');
    assert.equal(await wallet(t, c.id), undefined);
  });

  test('unknown invoice or gateway → 404/400, never a page', async () => {
    assert.equal((await fetch(`${base}/sandbox/pay/pgone/00000000-0000-4000-8000-000000000000`)).status, 404);
    assert.equal((await fetch(`${base}/sandbox/pay/pgnine/00000000-0000-4000-8000-000000000000`)).status, 400);
  });
});

describe('GET /api/payment/redirect/{gateway}', () => {
  test('without a front end: a small page per status; bad status → 400', async () => {
    for (const [status, text] of [
      ['success', 'Payment received'],
      ['failed', 'Payment failed'],
      ['pending', 'Payment pending'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/payment/redirect/pgtwo?status=${status}` });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.match(res.body, new RegExp(text));
    }
    for (const url of ['/api/payment/redirect/pgone?status=paid', '/api/payment/redirect/pgone', '/api/payment/redirect/pgx?status=success']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
  });

  test('with FRONTEND_URL: 302 to /billing/topup?status=...', async () => {
    const other = await buildTestApp({ worker: false, env: { FRONTEND_URL: 'https://app.example.test' } });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/payment/redirect/pgone?status=pending' });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, 'https://app.example.test/billing/topup?status=pending');
    } finally {
      await other.close();
    }
  });
});

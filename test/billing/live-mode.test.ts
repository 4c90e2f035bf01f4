import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { hmacSha256Hex } from '../../src/integrations/payment-gateways/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { client } from '../helpers/http.js';
import { invoiceRow } from '../helpers/money.js';

/** A local stand-in for the live pgone API (no internet in tests). */
let gateway: Server;
let failNext = false;
/** invoices the fake gateway reports as paid, with their amount */
const confirmed = new Map<string, string>();
const received: { path: string; body: any }[] = [];
let t: TestApp;

async function readBody(req: IncomingMessage): Promise<string> {
  let data = '';
  for await (const chunk of req) data += chunk;
  return data;
}

before(async () => {
  gateway = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    received.push({ path: req.url ?? '', body });
    if (req.url === '/v2/transactionStatus') {
      const paid = confirmed.get(body.merchantOrderId);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(paid ? { statusCode: '00', amount: paid } : { statusCode: '01', amount: '0' }));
      return;
    }
    if (failNext) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"statusCode":"99"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ statusCode: '00', reference: `REF-${received.length}`, paymentUrl: `https://pay.pgone.test/${body.merchantOrderId}`, vaNumber: '8808123' }),
    );
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  const port = (gateway.address() as AddressInfo).port;
  t = await buildTestApp({
    worker: false,
    env: {
      PAYMENT_MODE: 'live',
      PGONE_MERCHANT_CODE: 'M123',
      PGONE_API_KEY: 'live-key',
      PGTWO_CALLBACK_SECRET: 'live-secret',
      PGTWO_API_KEY: 'live-api-key',
      PGONE_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
});
after(async () => {
  await t.close();
  await new Promise((r) => gateway.close(r));
});

describe('live mode', () => {
  test('the deposit registers the payment with the gateway and answers its instructions', async () => {
    const c = await customerSession(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie }, payload: { amount: 50000, method_code: 'BC', gateway_name: 'pgone' } });
    assert.equal(res.statusCode, 200, res.body);
    const d = res.json().data;
    assert.equal(d.payment_url, `https://pay.pgone.test/${d.invoice_id}`);
    assert.equal(d.actions.va_number, '8808123');
    const sent = received.at(-1)!;
    assert.equal(sent.path, '/v2/inquiry');
    assert.equal(sent.body.merchantOrderId, d.invoice_id);
    assert.equal(sent.body.paymentAmount, '54000');
    assert.equal(sent.body.email, c.email);
    assert.equal(sent.body.signature, hmacSha256Hex('live-key', `M123${d.invoice_id}54000`));
    assert.equal((await invoiceRow(t, d.invoice_id)).gateway_reference, `REF-${received.length}`);
    // no sandbox pages in live mode
    assert.equal((await t.app.inject({ method: 'GET', url: `/sandbox/pay/pgone/${d.invoice_id}` })).statusCode, 404);
  });

  test('a gateway failure answers 502, fails the invoice and frees the Idempotency-Key', async () => {
    const c = await customerSession(t);
    const body = { amount: 20000, method_code: 'BC', gateway_name: 'pgone' };
    failNext = true;
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie, 'idempotency-key': 'k1' }, payload: body });
    failNext = false;
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().code, 'GATEWAY_ERROR');
    const failed = received.at(-1)!.body.merchantOrderId as string;
    assert.equal((await invoiceRow(t, failed)).status, 'Failed');
    const retry = await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie, 'idempotency-key': 'k1' }, payload: body });
    assert.equal(retry.statusCode, 200);
    assert.notEqual(retry.json().data.invoice_id, failed);
  });

  test('callbacks are verified with the live keys', async () => {
    const c = await customerSession(t);
    const d = (await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie }, payload: { amount: 10000, method_code: 'BC', gateway_name: 'pgone' } })).json().data;
    const form = (key: string) =>
      new URLSearchParams({ merchantCode: 'M123', amount: '14000', merchantOrderId: d.invoice_id, resultCode: '00', signature: hmacSha256Hex(key, `M12314000${d.invoice_id}`) }).toString();
    const { post } = client(() => t, () => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    assert.equal((await post('/api/webhook/pgone/callback', form('sandbox-pgone-api-key'))).statusCode, 401);
    // resultCode is not covered by pgone's signature: the gateway is asked before anything is credited
    const unconfirmed = await post('/api/webhook/pgone/callback', form('live-key'));
    assert.equal(unconfirmed.statusCode, 400);
    assert.equal(unconfirmed.json().code, 'PAYMENT_NOT_CONFIRMED');
    assert.equal((await invoiceRow(t, d.invoice_id)).status, 'Pending');
    const status = received.at(-1)!;
    assert.equal(status.path, '/v2/transactionStatus');
    assert.equal(status.body.signature, hmacSha256Hex('live-key', `M123${d.invoice_id}`));
    confirmed.set(d.invoice_id, '14000');
    assert.equal((await post('/api/webhook/pgone/callback', form('live-key'))).statusCode, 200);
    assert.equal((await invoiceRow(t, d.invoice_id)).status, 'Paid');
    const asked = received.length;
    assert.equal((await post('/api/webhook/pgone/callback', form('live-key'))).statusCode, 200, 'a repeat');
    assert.equal(received.length, asked, 'a repeat for a Paid invoice does not ask the gateway again');
  });
});

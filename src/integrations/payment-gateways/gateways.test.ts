import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../platform/clock.js';
import { createPaymentGateways, gatewayAmount, PgOneGateway, PgTwoGateway, signatureMatches, type GatewayConfig, type OutboundRequest } from './index.js';

const config = (mode: 'sandbox' | 'live'): GatewayConfig => ({
  mode,
  publicUrl: 'https://api.example.test',
  pgone: { merchantCode: 'SANDBOX01', apiKey: 'sandbox-pgone-api-key', baseUrl: 'https://pgone.test/merchant' },
  pgtwo: { callbackSecret: 'sec', apiKey: 'xnd_secret', baseUrl: 'https://pgtwo.test' },
});
const invoiceId = 'b7a3a5ae-0000-4000-8000-000000000001';
const request = {
  invoiceId,
  totalAmount: '10070.00',
  currency: 'IDR',
  methodCode: 'SP',
  methodType: 'QRIS' as const,
  customer: { email: 'a@example.test', name: 'A B' },
  expiresAt: new Date(Date.now() + 24 * 3600_000),
  description: 'Wallet top-up',
};

describe('the gateways take time from the injected clock', () => {
  test('the expiry sent to the gateway is counted from the clock, not the machine time', () => {
    const clock = new ManualClock('2031-06-01T00:00:00.000Z');
    const expiresAt = new Date('2031-06-02T00:00:00.000Z');
    const noSend = async () => ({ status: 500, body: null });
    const pgone = new PgOneGateway({ ...config('live'), clock }, noSend).buildCreateRequest({ ...request, expiresAt });
    assert.equal(JSON.parse(pgone.body).expiryPeriod, 1440);
    const pgtwo = new PgTwoGateway({ ...config('live'), clock }, noSend).buildCreateRequest({ ...request, expiresAt });
    assert.equal(JSON.parse(pgtwo.body).invoice_duration, 86_400);
  });
});

describe('signatures', () => {
  test('pgone: HMAC-SHA256(api key, merchantCode + amount + merchantOrderId), lowercase hex (openssl vector)', () => {
    const gw = new PgOneGateway(config('sandbox'), async () => ({ status: 500, body: null }));
    assert.equal(gw.signature('10000', invoiceId), 'c74bbcdcd0e03c33ef236488e664a2800698b210443165786bc071fe102b3f58');
  });

  test('pgtwo: HMAC-SHA256(callback secret, raw body) (openssl vector)', () => {
    const gw = new PgTwoGateway(config('sandbox'), async () => ({ status: 500, body: null }));
    assert.equal(gw.signature('{"a":1}'), 'c849586ed3da59538720c90b6e5167016fa10f493ac9f358b1b1cc525fdb7328');
  });

  test('comparison: exact, case-sensitive, any length or type refused without throwing', () => {
    const sig = 'c849586ed3da59538720c90b6e5167016fa10f493ac9f358b1b1cc525fdb7328';
    assert.equal(signatureMatches(sig, sig), true);
    for (const bad of [sig.toUpperCase(), sig.slice(1), `${sig}0`, '', 'é'.repeat(32), 'é'.repeat(64), undefined, 42, [sig]]) {
      assert.equal(signatureMatches(sig, bad), false, String(bad));
    }
  });

  test('gateway amounts: whole amounts without decimals', () => {
    assert.equal(gatewayAmount('10000.00'), '10000');
    assert.equal(gatewayAmount('10000.50'), '10000.50');
    assert.equal(gatewayAmount('10000.05'), '10000.05');
  });

  test('sandbox callbacks verify with the same adapter', () => {
    const gws = createPaymentGateways(config('sandbox'));
    for (const gw of gws.values()) {
      const cb = gw.sandboxCallback({ invoiceId, totalAmount: '10070.00', gatewayReference: 'R1' }, 'success', new Date());
      const body = cb.headers['content-type'] === 'application/json' ? JSON.parse(cb.body) : Object.fromEntries(new URLSearchParams(cb.body));
      const v = gw.verifyCallback({ rawBody: cb.body, body, headers: cb.headers });
      assert.deepEqual([v.invoiceId, v.amount, v.result], [invoiceId, '10070', 'success']);
    }
  });
});

describe('live mode: outbound requests are built behind the adapter', () => {
  test('pgone inquiry request and answer', async () => {
    const sent: OutboundRequest[] = [];
    const gw = new PgOneGateway(config('live'), async (req) => {
      sent.push(req);
      return { status: 200, body: { statusCode: '00', reference: 'DK1', paymentUrl: 'https://pay.pgone.test/DK1', qrString: '000201QR' } };
    });
    const created = await gw.createPayment(request);
    assert.deepEqual(created, { paymentUrl: 'https://pay.pgone.test/DK1', redirectUrl: null, vaNumber: null, qrString: '000201QR', gatewayReference: 'DK1' });
    assert.equal(sent[0]!.url, 'https://pgone.test/merchant/v2/inquiry');
    const body = JSON.parse(sent[0]!.body);
    assert.equal(body.merchantCode, 'SANDBOX01');
    assert.equal(body.paymentAmount, '10070');
    assert.equal(body.merchantOrderId, invoiceId);
    assert.equal(body.paymentMethod, 'SP');
    assert.equal(body.callbackUrl, 'https://api.example.test/api/webhook/pgone/callback');
    assert.match(body.signature, /^[0-9a-f]{64}$/);
    assert.ok(body.expiryPeriod >= 1439 && body.expiryPeriod <= 1440);
  });

  test('pgtwo create-invoice request (Basic auth, idempotency key) and answer', async () => {
    const sent: OutboundRequest[] = [];
    const gw = new PgTwoGateway(config('live'), async (req) => {
      sent.push(req);
      return { status: 200, body: { id: 'inv_1', invoice_url: 'https://checkout.pgtwo.test/inv_1' } };
    });
    const created = await gw.createPayment({ ...request, methodType: 'CARD', methodCode: 'CREDIT_CARD' });
    assert.deepEqual(created, { paymentUrl: 'https://checkout.pgtwo.test/inv_1', redirectUrl: 'https://checkout.pgtwo.test/inv_1', vaNumber: null, qrString: null, gatewayReference: 'inv_1' });
    assert.equal(sent[0]!.url, 'https://pgtwo.test/v2/invoices');
    assert.equal(sent[0]!.headers.authorization, `Basic ${Buffer.from('xnd_secret:').toString('base64')}`);
    assert.equal(sent[0]!.headers['idempotency-key'], invoiceId);
    const body = JSON.parse(sent[0]!.body);
    assert.deepEqual([body.external_id, body.amount, body.currency, body.payment_methods], [invoiceId, 10070, 'IDR', ['CREDIT_CARD']]);
  });

  test('a refusal or a network failure is a 502 GATEWAY_ERROR', async () => {
    const refusing = new PgOneGateway(config('live'), async () => ({ status: 200, body: { statusCode: '01', statusMessage: 'bad' } }));
    await assert.rejects(refusing.createPayment(request), (err: any) => err.status === 502 && err.code === 'GATEWAY_ERROR');
    const down = new PgTwoGateway(config('live'), async () => {
      throw new Error('ECONNREFUSED');
    });
    await assert.rejects(down.createPayment(request), (err: any) => err.status === 502);
  });
});

describe('one skeleton, two adapters (docs/architecture.md, habit 13)', () => {
  const noSend = async () => ({ status: 500, body: null });
  test('both gateways are the same adapter skeleton', async () => {
    const { GatewayAdapter } = await import('./adapter.js');
    for (const gw of createPaymentGateways(config('sandbox'), noSend).values()) assert.ok(gw instanceof GatewayAdapter, gw.name);
  });

  test('pgtwo reads the callback amount from the raw text: a number a float would round is not taken as the invoice amount', () => {
    const gw = new PgTwoGateway(config('sandbox'), noSend);
    const rawBody = `{"id":"x1","external_id":"${invoiceId}","amount":10070.0000000000001,"status":"PAID"}`;
    const cb = { rawBody, body: JSON.parse(rawBody), headers: { 'x-callback-signature': gw.signature(rawBody) } };
    assert.equal(JSON.parse(rawBody).amount, 10070, 'JSON.parse alone would see the invoice amount');
    assert.throws(() => gw.verifyCallback(cb), (err: any) => err.status === 400 && err.errors[0].field === 'amount');
    const exact = `{"id":"x1","external_id":"${invoiceId}","amount":10070.10,"status":"PAID"}`;
    assert.equal(gw.verifyCallback({ rawBody: exact, body: JSON.parse(exact), headers: { 'x-callback-signature': gw.signature(exact) } }).amount, '10070.10');
  });

  test('outbound and sandbox pgtwo bodies write the amount from its decimal text', () => {
    const gw = new PgTwoGateway(config('live'), noSend);
    assert.match(gw.buildCreateRequest({ ...request, totalAmount: '1000000000.10' }).body, /"amount":1000000000\.10[,}]/);
    assert.match(gw.sandboxCallback({ invoiceId, totalAmount: '10000.00', gatewayReference: null }, 'success', new Date(0)).body, /"amount":10000[,}]/);
  });
});

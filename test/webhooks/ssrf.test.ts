import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { deliveriesSettled } from './settled.js';

// The outbound guard as it runs by default (WEBHOOK_ALLOW_PRIVATE_TARGETS unset), and always in production.
let t: TestApp;
let receiver: WebhookReceiver;

before(async () => {
  t = await buildTestApp();
  receiver = await new WebhookReceiver().start();
});
after(async () => {
  await receiver.close();
  await t.close();
});

describe('webhooks cannot reach the platform’s own network', () => {
  test('an endpoint at a loopback, private, link-local or metadata address is refused when it is registered', async () => {
    const s = await customerSession(t);
    const urls = [
      receiver.url(),
      `http://[::1]:${receiver.port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.5/hook',
      'http://192.168.1.1/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://2130706433/hook',
      'http://0.0.0.0/hook',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url, event_types: ['*'] } });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(res.json().errors[0].message, /not a public address/);
    }
    const moved = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url: 'https://hooks.example.com/in', event_types: ['*'] } });
    assert.equal(moved.statusCode, 201);
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/endpoints/${moved.json().data.id}`, headers: { cookie: s.cookie }, payload: { url: 'http://127.0.0.1/x' } });
    assert.equal(patched.statusCode, 400);
  });

  test('a host name that resolves to a loopback address is refused at connection time, and nothing reaches the receiver', async () => {
    const s = await customerSession(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/endpoints',
      headers: { cookie: s.cookie },
      payload: { url: `http://localhost:${receiver.port}/hook`, event_types: ['bucket.created'] },
    });
    assert.equal(res.statusCode, 201, 'a name is checked when it is used: what it resolves to can change');
    await t.container.db.transaction((tx) => t.container.services.webhookEvents.emit(tx, { customerId: s.id, type: 'bucket.created', data: { name: 'b' } }));
    await deliveriesSettled(t);
    const attempts = await queryRows<{ status: string; status_code: number | null; error: string }>(
      t.container.db,
      sql`select a.status, a.status_code, a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${res.json().data.id}`,
    );
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]!.status, 'failed');
    assert.equal(attempts[0]!.status_code, null);
    assert.match(attempts[0]!.error, /ADDRESS_NOT_ALLOWED: localhost has no public address/);
    // which address it was is not told: the attempt log would read the platform's internal DNS
    assert.doesNotMatch(attempts[0]!.error, /127\.0\.0\.1|::1/);
    assert.equal(receiver.received.length, 0);
  });
});

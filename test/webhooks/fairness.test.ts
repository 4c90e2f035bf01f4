import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { exactNumber, MAX_IN_FLIGHT_PER_CUSTOMER, MAX_IN_FLIGHT_PER_ENDPOINT } from '../../src/modules/webhooks/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { BlackHole } from './black-hole.js';

// The platform clock stands still, so a failed attempt's retry never comes due during a test.
const clock = new ManualClock(new Date());
let t: TestApp;
let receiver: WebhookReceiver;
let blackHole: BlackHole;

before(async () => {
  t = await buildTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new WebhookReceiver().start();
  blackHole = await new BlackHole().start();
});
after(async () => {
  await blackHole.close();
  await receiver.close();
  await t.close();
});

type Session = Awaited<ReturnType<typeof customerSession>>;

async function createEndpoint(s: Session, url: string): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url, event_types: ['topup.credited'] } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id;
}

const credited = (customerId: number, n: number) =>
  t.container.db.transaction((tx) =>
    t.container.services.webhookEvents.emitMany(
      tx,
      Array.from({ length: n }, (_, i) => ({ customerId, type: 'topup.credited' as const, data: { invoice_id: `inv-${customerId}-${i}`, amount: exactNumber('10000.00'), currency: 'IDR' } })),
    ),
  );

const attemptsOf = (customerId: number) =>
  queryRows<{ endpoint_id: number; status: string }>(
    t.container.db,
    sql`select d.endpoint_id, a.status from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.customer_id = ${customerId} order by a.id`,
  );

describe('one customer cannot delay another customer’s webhooks', () => {
  test('a burst to endpoints that never answer holds at most the caps in flight, and another customer’s delivery is made meanwhile', async () => {
    const a = await customerSession(t);
    const holes = [await createEndpoint(a, blackHole.url('/a1')), await createEndpoint(a, blackHole.url('/a2')), await createEndpoint(a, blackHole.url('/a3'))];
    const b = await customerSession(t);
    await createEndpoint(b, receiver.url('/b'));

    await credited(a.id, 300); // 900 deliveries, none of which will ever be answered
    await eventually(async () => blackHole.openInAll() >= MAX_IN_FLIGHT_PER_CUSTOMER, 60_000, 20);

    await credited(b.id, 1);
    const [got] = await receiver.waitFor(1, 60_000);
    assert.equal(got!.path, '/b');
    await eventually(async () => {
      const [d] = await queryRows<{ status: string }>(t.container.db, sql`select status from webhook_deliveries where customer_id = ${b.id}`);
      return d?.status === 'succeeded';
    }, 60_000, 20);

    // B was delivered while every attempt to A's endpoints was still waiting for its answer
    const attempts = await attemptsOf(a.id);
    assert.deepEqual(
      attempts.map((x) => x.status),
      Array(MAX_IN_FLIGHT_PER_CUSTOMER).fill('sending'),
      'A has exactly its cap in flight, and not one of them has ended',
    );
    for (const id of holes) assert.ok(attempts.filter((x) => x.endpoint_id === id).length <= MAX_IN_FLIGHT_PER_ENDPOINT, `endpoint ${id}`);
    for (const path of ['/a1', '/a2', '/a3']) assert.ok((blackHole.maxOpen.get(path) ?? 0) <= MAX_IN_FLIGHT_PER_ENDPOINT, `${path} held ${blackHole.maxOpen.get(path)} at once`);
    assert.equal(blackHole.maxOpenInAll, MAX_IN_FLIGHT_PER_CUSTOMER, 'never more than the account’s cap at once');
    const [waiting] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from webhook_deliveries where customer_id = ${a.id} and status = 'pending' and attempts = 0`);
    assert.equal(waiting!.n, 900 - MAX_IN_FLIGHT_PER_CUSTOMER, 'the rest of the burst waits its turn');

    // turning A's endpoints off fails what waits; what is in flight ends when the receiver drops it
    for (const id of holes) {
      const off = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/endpoints/${id}`, headers: { cookie: a.cookie }, payload: { enabled: false } });
      assert.equal(off.statusCode, 200, off.body);
    }
  });
});

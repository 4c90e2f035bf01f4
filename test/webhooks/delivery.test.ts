import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { exactNumber, RETRY_DELAYS_MS, type EventType } from '../../src/modules/webhooks/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { verify, WebhookReceiver } from '../helpers/webhook-receiver.js';
import { deliveriesSettled } from './settled.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
let t: TestApp;
let receiver: WebhookReceiver;
const clock = new ManualClock(new Date());

before(async () => {
  t = await buildTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new WebhookReceiver().start();
});
after(async () => {
  await receiver.close();
  await t.close();
});

type Session = Awaited<ReturnType<typeof customerSession>>;

/** A fresh cookie: the clock moves by days in these tests, past the 15-minute access token. */
const cookieOf = (s: Session) => loginCustomer(t, s.email, s.password);

async function createEndpoint(s: Session, body: Record<string, unknown>): Promise<{ id: number; secret: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: await cookieOf(s) }, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().data.id, secret: res.json().data.secret };
}

const emit = (customerId: number, type: EventType, data: Record<string, unknown>) =>
  t.container.db.transaction((tx) => t.container.services.webhookEvents.emit(tx, { customerId, type, data }));

const settled = () => deliveriesSettled(t);
const sweep = async () => {
  await t.container.queue.runNow('webhooks.sweep');
  await settled();
};

interface DeliveryState {
  id: number;
  status: string;
  attempts: number;
  step: number;
  next_attempt_at: Date | null;
}
const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
const deliveriesTo = async (endpointId: number): Promise<DeliveryState[]> =>
  (await queryRows<DeliveryState>(t.container.db, sql`select id::int as id, status, attempts, step, next_attempt_at from webhook_deliveries where endpoint_id = ${endpointId} order by id`)).map((d) => ({
    ...d,
    next_attempt_at: date(d.next_attempt_at),
  }));
const attemptsOf = (deliveryId: number) =>
  queryRows<{ attempt: number; status: string; status_code: number | null; duration_ms: number | null; response_body: string | null; error: string | null }>(
    t.container.db,
    sql`select attempt, status, status_code, duration_ms, response_body, error from webhook_attempts where delivery_id = ${deliveryId} order by id`,
  );
const endpointRow = async (id: number) => {
  const [row] = await queryRows<{ disabled_at: unknown; disabled_reason: string | null; failing_since: unknown }>(t.container.db, sql`select disabled_at, disabled_reason, failing_since from webhook_endpoints where id = ${id}`);
  return { disabled_at: date(row!.disabled_at), disabled_reason: row!.disabled_reason, failing_since: date(row!.failing_since) };
};
const fromReceiver = (path: string) => receiver.received.filter((r) => r.path === path);
let paths = 0;
const newPath = () => `/hook-${++paths}`;

describe('delivery', () => {
  test('an event is delivered once, signed per Standard Webhooks (checked with the standardwebhooks library), with its attempt recorded', async () => {
    const s = await customerSession(t);
    const path = newPath();
    receiver.answer = (r) => (r.path === path ? { status: 200, body: 'thanks' } : { status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['topup.credited', 'invoice.paid'], description: 'billing system' });

    await emit(s.id, 'topup.credited', { invoice_id: 'inv-1', amount: exactNumber('1000999999999999.99'), currency: 'IDR' });
    await emit(s.id, 'vm.state_changed', { vm_id: 1, from: 'Creating', to: 'Running' }); // not subscribed
    await settled();

    const got = fromReceiver(path);
    assert.equal(got.length, 1);
    const req = got[0]!;
    assert.match(String(req.headers['webhook-id']), /^evt_[0-9a-f-]{36}$/);
    assert.match(String(req.headers['webhook-timestamp']), /^\d{10}$/);
    assert.equal(req.headers['content-type'], 'application/json');
    const checked = verify(ep.secret, req);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.equal(checked.payload.type, 'topup.credited');
    assert.equal(checked.payload.data.invoice_id, 'inv-1');
    // money leaves as the exact decimal, not through a binary float
    assert.match(req.body, /"amount": 1000999999999999\.99[,}]/);
    assert.equal(verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, req).ok, false, 'another secret does not verify');

    const [delivery] = await deliveriesTo(ep.id);
    assert.equal(delivery!.status, 'succeeded');
    const [attempt] = await attemptsOf(delivery!.id);
    assert.equal(attempt!.status, 'succeeded');
    assert.equal(attempt!.status_code, 200);
    assert.equal(attempt!.response_body, 'thanks');
    assert.ok(attempt!.duration_ms !== null && attempt!.duration_ms >= 0);

    const cookie = await cookieOf(s);
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks/events', headers: { cookie } });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.total, 1, 'an event no endpoint takes is not kept');
    const detail = await t.app.inject({ method: 'GET', url: `/api/webhooks/events/${req.headers['webhook-id']}`, headers: { cookie } });
    assert.equal(detail.statusCode, 200, detail.body);
    const d = detail.json().data;
    assert.equal(d.payload, req.body);
    assert.equal(d.deliveries[0].status, 'succeeded');
    assert.deepEqual(
      d.deliveries[0].attempt_log.map((a: any) => [a.attempt, a.status, a.status_code, a.response_body]),
      [[1, 'succeeded', 200, 'thanks']],
    );
    const other = await customerSession(t);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/webhooks/events/${req.headers['webhook-id']}`, headers: { cookie: other.cookie } })).statusCode, 404);
  });

  test('an event whose transaction rolls back is never written nor sent; a batch is written by one statement', async () => {
    const s = await customerSession(t);
    const path = newPath();
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['*'] });
    await assert.rejects(
      t.container.db.transaction(async (tx) => {
        await t.container.services.webhookEvents.emit(tx, { customerId: s.id, type: 'bucket.created', data: { name: 'lost' } });
        throw new Error('the change failed');
      }),
    );
    await t.container.db.transaction((tx) =>
      t.container.services.webhookEvents.emitMany(
        tx,
        Array.from({ length: 50 }, (_, i) => ({ customerId: s.id, type: 'topup.credited' as const, data: { invoice_id: `inv-${i}`, amount: exactNumber('10000.00'), currency: 'IDR' } })),
      ),
    );
    await settled();
    assert.equal(fromReceiver(path).length, 50);
    assert.ok(fromReceiver(path).every((r) => !r.body.includes('lost')));
    assert.equal(new Set(fromReceiver(path).map((r) => r.headers['webhook-id'])).size, 50);
    assert.ok((await deliveriesTo(ep.id)).every((d) => d.status === 'succeeded'));
  });

  test('a test event goes to that endpoint only', async () => {
    const s = await customerSession(t);
    const path = newPath();
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['ticket.replied'] });
    const other = await createEndpoint(s, { url: receiver.url(`${path}-other`), event_types: ['*'] });
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep.id}/test`, headers: { cookie: await cookieOf(s) } });
    assert.equal(res.statusCode, 202, res.body);
    await settled();
    const [got] = fromReceiver(path);
    assert.equal(got!.headers['webhook-id'], res.json().data.event_id);
    assert.equal(verify(ep.secret, got!).ok, true);
    assert.equal(JSON.parse(got!.body).type, 'webhook.test');
    assert.equal(fromReceiver(`${path}-other`).length, 0);
    assert.equal((await deliveriesTo(other.id)).length, 0);
  });
});

describe('retries', () => {
  test('a 500 is retried after the schedule’s first wait, moved by the injected clock; then the 2xx counts', async () => {
    const s = await customerSession(t);
    const path = newPath();
    let calls = 0;
    receiver.answer = (r) => (r.path === path ? (++calls === 1 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 }) : { status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['account.suspended'] });
    await emit(s.id, 'account.suspended', { reason: 'balance below zero' });
    await settled();

    const [first] = await deliveriesTo(ep.id);
    assert.equal(first!.status, 'pending');
    const wait = first!.next_attempt_at!.getTime() - clock.now().getTime();
    assert.ok(wait >= 0.9 * MINUTE && wait <= 1.1 * MINUTE, `first retry in ${wait} ms`);
    assert.ok((await endpointRow(ep.id)).failing_since);
    const [failed] = await attemptsOf(first!.id);
    assert.deepEqual([failed!.status, failed!.status_code], ['failed', 500]);
    assert.equal(failed!.response_body, 'x'.repeat(1024), 'the first KiB of the answer is kept');

    await sweep(); // not due yet
    assert.equal(fromReceiver(path).length, 1);
    clock.advance(wait);
    await sweep();
    assert.equal(fromReceiver(path).length, 2);
    const [again] = fromReceiver(path).slice(1);
    assert.equal(again!.headers['webhook-id'], fromReceiver(path)[0]!.headers['webhook-id'], 'a retry carries the same webhook-id');
    assert.equal(again!.body, fromReceiver(path)[0]!.body);
    assert.equal(verify(ep.secret, again!).ok, true);
    const [done] = await deliveriesTo(ep.id);
    assert.deepEqual([done!.status, done!.attempts], ['succeeded', 2]);
    assert.equal((await endpointRow(ep.id)).failing_since, null);
  });

  test('a delivery that keeps failing follows the whole schedule (about three days), then fails for good; replay-failed sends it again', async () => {
    const s = await customerSession(t);
    const path = newPath();
    let up = false;
    receiver.answer = (r) => (r.path === path ? { status: up ? 200 : 503 } : { status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['invoice.overdue'] });
    const start = clock.now().getTime();
    await emit(s.id, 'invoice.overdue', { invoice_id: 'p-1' });
    await settled();
    for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
      const [d] = await deliveriesTo(ep.id);
      assert.equal(d!.status, 'pending', `after attempt ${i + 1}`);
      clock.set(d!.next_attempt_at!);
      await sweep();
    }
    const [d] = await deliveriesTo(ep.id);
    assert.deepEqual([d!.status, d!.attempts, d!.next_attempt_at], ['failed', RETRY_DELAYS_MS.length + 1, null]);
    const span = clock.now().getTime() - start;
    assert.ok(span > 2.6 * DAY && span < 3.4 * DAY, `retried over ${span / DAY} days`);
    assert.equal(fromReceiver(path).length, RETRY_DELAYS_MS.length + 1);
    assert.equal((await endpointRow(ep.id)).disabled_at, null, 'under 5 days of failing: still enabled');

    up = true;
    const replay = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/endpoints/${ep.id}/replay-failed`,
      headers: { cookie: await cookieOf(s) },
      payload: { since: new Date(start - MINUTE).toISOString() },
    });
    assert.equal(replay.statusCode, 202, replay.body);
    assert.equal(replay.json().data.replayed, 1);
    await settled();
    const [after] = await deliveriesTo(ep.id);
    assert.equal(after!.status, 'succeeded');
    assert.equal(fromReceiver(path).length, RETRY_DELAYS_MS.length + 2);
  });

  test('an endpoint whose deliveries have all failed for 5 days is disabled, and its owner told in the app and by mail', async () => {
    const s = await customerSession(t);
    const path = newPath();
    receiver.answer = (r) => (r.path === path ? { status: 502 } : { status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['balance.low'] });
    await emit(s.id, 'balance.low', { current_balance: exactNumber('49000.00') });
    await settled();
    const since = (await endpointRow(ep.id)).failing_since!;
    clock.set(new Date(since.getTime() + 5 * DAY - MINUTE));
    await sweep();
    assert.equal((await endpointRow(ep.id)).disabled_at, null);
    clock.set(new Date(since.getTime() + 5 * DAY));
    await sweep();
    const row = await endpointRow(ep.id);
    assert.ok(row.disabled_at);
    assert.equal(row.disabled_reason, 'failing');
    const notes = await queryRows<{ kind: string }>(t.container.db, sql`select kind from notifications where customer_id = ${s.id}`);
    assert.deepEqual(notes.map((n) => n.kind), ['WEBHOOK_DISABLED']);
    const mails = await queryRows<{ template: string }>(t.container.db, sql`select template from mail_outbox where to_address = ${s.email}`);
    assert.deepEqual(mails.map((m) => m.template), ['webhook_disabled']);
    // disabled: nothing is kept or sent for it until it is enabled again
    await emit(s.id, 'balance.low', { current_balance: exactNumber('1.00') });
    await settled();
    assert.equal((await deliveriesTo(ep.id)).length, 1);
    const cookie = await cookieOf(s);
    const enabled = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/endpoints/${ep.id}`, headers: { cookie }, payload: { enabled: true } });
    assert.equal(enabled.statusCode, 200);
    assert.deepEqual([enabled.json().data.enabled, enabled.json().data.disabled_reason, enabled.json().data.failing_since], [true, null, null]);
  });

  test('410 Gone disables the endpoint at once', async () => {
    const s = await customerSession(t);
    const path = newPath();
    receiver.answer = (r) => (r.path === path ? { status: 410, body: 'gone' } : { status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['bucket.deleted', 'bucket.created'] });
    await emit(s.id, 'bucket.created', { name: 'a' });
    await settled();
    const row = await endpointRow(ep.id);
    assert.equal(row.disabled_reason, 'gone');
    const [d] = await deliveriesTo(ep.id);
    assert.deepEqual([d!.status, d!.attempts], ['failed', 1]);
    const notes = await queryRows<{ kind: string; body: string }>(t.container.db, sql`select kind, body from notifications where customer_id = ${s.id}`);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.body, /410/);
    clock.advance(DAY);
    await sweep();
    assert.equal(fromReceiver(path).length, 1, 'never tried again');
    const test = await t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep.id}/test`, headers: { cookie: await cookieOf(s) } });
    assert.equal(test.statusCode, 409);
    assert.equal(test.json().code, 'ENDPOINT_DISABLED');
  });

  test('a redirect is not followed: the attempt fails with its 3xx and the target is never contacted', async () => {
    const inside = await new WebhookReceiver().start();
    try {
      const s = await customerSession(t);
      const path = newPath();
      receiver.answer = (r) => (r.path === path ? { status: 302, headers: { location: inside.url('/latest/meta-data') } } : { status: 200 });
      const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['ticket.status_changed'] });
      await emit(s.id, 'ticket.status_changed', { ticket_id: 1, from: 'Open', to: 'Closed' });
      await settled();
      const [d] = await deliveriesTo(ep.id);
      assert.equal(d!.status, 'pending');
      assert.equal((await attemptsOf(d!.id))[0]!.status_code, 302);
      assert.equal(inside.received.length, 0);
    } finally {
      await inside.close();
    }
  });
});

describe('replay and secret rotation', () => {
  test('replaying an event sends it again with the same webhook-id and body', async () => {
    const s = await customerSession(t);
    const path = newPath();
    receiver.answer = () => ({ status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['vm.state_changed'] });
    await emit(s.id, 'vm.state_changed', { vm_id: 7, from: 'Stopped', to: 'Running' });
    await settled();
    const [first] = fromReceiver(path);
    const cookie = await cookieOf(s);
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/events/${first!.headers['webhook-id']}/replay`, headers: { cookie } });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().data.replayed, 1);
    await settled();
    const [, second] = fromReceiver(path);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    assert.equal(second!.body, first!.body);
    assert.equal(verify(ep.secret, second!).ok, true);
    const [d] = await deliveriesTo(ep.id);
    assert.deepEqual([d!.status, d!.attempts], ['succeeded', 2]);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/webhooks/events/evt_00000000-0000-4000-8000-000000000000/replay', headers: { cookie } });
    assert.equal(unknown.statusCode, 404);
  });

  test('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const s = await customerSession(t);
    const path = newPath();
    receiver.answer = () => ({ status: 200 });
    const ep = await createEndpoint(s, { url: receiver.url(path), event_types: ['network.state_changed'] });
    const rotated = await t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep.id}/rotate-secret`, headers: { cookie: await cookieOf(s) } });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const fresh = rotated.json().data.secret;
    assert.notEqual(fresh, ep.secret);
    assert.equal(new Date(rotated.json().data.previous_secret_expires_at).getTime(), clock.now().getTime() + DAY);

    await emit(s.id, 'network.state_changed', { network_uuid: 'n', from: 'Creating', to: 'ACTIVE' });
    await settled();
    const [during] = fromReceiver(path);
    assert.equal(String(during!.headers['webhook-signature']).split(' ').length, 2);
    assert.equal(verify(ep.secret, during!).ok, true, 'the old secret still verifies in the overlap');
    assert.equal(verify(fresh, during!).ok, true, 'the new secret verifies');

    clock.advance(DAY);
    await emit(s.id, 'network.state_changed', { network_uuid: 'n', from: 'ACTIVE', to: 'Deleted' });
    await settled();
    const [, later] = fromReceiver(path);
    assert.equal(verify(fresh, later!).ok, true);
    assert.equal(verify(ep.secret, later!).ok, false, 'the old secret no longer signs after the overlap');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { REPLAYS_PER_MINUTE, TESTS_PER_MINUTE } from '../../src/modules/webhooks/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

// No worker: what a request queued stays in the database to be counted.
const clock = new ManualClock(new Date());
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
after(() => t.close());

type Session = Awaited<ReturnType<typeof customerSession>>;

async function endpointOf(s: Session): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url: 'http://127.0.0.1:9/hook', event_types: ['*'] } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id;
}

async function tokenOf(s: Session): Promise<string> {
  const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).json().data.token;
  const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': sudo }, payload: { name: 'ci', scopes: ['webhooks:write'] } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.token;
}

const eventsOf = async (customerId: number) => (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from webhook_events where customer_id = ${customerId}`))[0]!.n;

function assertLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, retryAfter: number): void {
  assert.equal(res.statusCode, 429);
  assert.equal(res.json().code, 'RATE_LIMITED');
  assert.equal(res.headers['retry-after'], String(retryAfter));
}

describe('test events and replays are rate limited per account', () => {
  test('test events: the limit holds for the cookie session and the account’s tokens together, writes nothing past it, and starts again the next minute', async () => {
    const s = await customerSession(t);
    const ep = await endpointOf(s);
    const token = await tokenOf(s);
    const send = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep}/test`, headers });

    for (let i = 0; i < TESTS_PER_MINUTE - 1; i++) assert.equal((await send({ cookie: s.cookie })).statusCode, 202);
    assert.equal((await send({ authorization: `Bearer ${token}` })).statusCode, 202);
    assert.equal(await eventsOf(s.id), TESTS_PER_MINUTE);

    clock.advance(20_000);
    assertLimited(await send({ cookie: s.cookie }), 40);
    assertLimited(await send({ authorization: `Bearer ${token}` }), 40);
    assert.equal(await eventsOf(s.id), TESTS_PER_MINUTE, 'a refused test writes no event');

    const other = await customerSession(t);
    const otherEp = await endpointOf(other);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${otherEp}/test`, headers: { cookie: other.cookie } })).statusCode, 202, 'another account has its own limit');

    clock.advance(40_000);
    assert.equal((await send({ cookie: s.cookie })).statusCode, 202);
  });

  test('replays of events and of failed deliveries share one limit; a refused replay changes nothing', async () => {
    const s = await customerSession(t);
    const ep = await endpointOf(s);
    await t.container.db.transaction((tx) => t.container.services.webhookEvents.emit(tx, { customerId: s.id, type: 'bucket.created', data: { name: 'b' } }));
    const [event] = await queryRows<{ id: number; uuid: string }>(t.container.db, sql`select id::int as id, uuid::text as uuid from webhook_events where customer_id = ${s.id}`);
    await t.container.services.webhookDeliveries.fanOut([event!.id]);
    await t.container.db.execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where event_id = ${event!.id}`);
    const status = async () => (await queryRows<{ status: string }>(t.container.db, sql`select status from webhook_deliveries where event_id = ${event!.id}`))[0]!.status;
    const since = new Date(clock.now().getTime() - 60_000).toISOString();
    const replayFailed = () => t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep}/replay-failed`, headers: { cookie: s.cookie }, payload: { since } });
    const replayEvent = () => t.app.inject({ method: 'POST', url: `/api/webhooks/events/evt_${event!.uuid}/replay`, headers: { cookie: s.cookie } });

    for (let i = 0; i < REPLAYS_PER_MINUTE; i++) {
      const res = await (i % 2 === 0 ? replayEvent() : replayFailed());
      assert.equal(res.statusCode, 202, res.body);
    }
    assert.equal(await status(), 'pending', 'the replays made it due again');
    await t.container.db.execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where event_id = ${event!.id}`);

    assertLimited(await replayFailed(), 60);
    assertLimited(await replayEvent(), 60);
    assert.equal(await status(), 'failed', 'a refused replay sends nothing again');

    clock.advance(60_000);
    const res = await replayFailed();
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().data.replayed, 1);
    assert.equal(await status(), 'pending');
  });
});

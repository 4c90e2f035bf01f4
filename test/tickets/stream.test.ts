import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, createAdmin, createCustomRole, loginAdmin } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { postgresOnly } from '../helpers/database.js';
import { listening, openSse, type SseClient, type SseMessage } from '../helpers/sse.js';

const STREAM = '/api/backoffice/ticket/sse/stream';
let t: TestApp;
let base: string;
const clock = new ManualClock();
const open: SseClient[] = [];
/** Both processes sign and check tokens with one key, as a deployment's processes do. */
const env = { SSE_HEARTBEAT_MS: '200', JWT_SECRET: 'stream-test-jwt-secret-0123456789abcdef', ENCRYPTION_KEY: 'ab'.repeat(32) };

before(async () => {
  t = await buildTestApp({ worker: false, clock, env });
  base = await listening(t.app);
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

async function stream(cookie: string, lastEventId?: string, url = base): Promise<SseClient> {
  const c = await openSse(`${url}${STREAM}`, { cookie, ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) });
  open.push(c);
  return c;
}

const ofType = (type: string, ticketId?: number) => (m: SseMessage) =>
  m.data?.type === type && (ticketId === undefined || m.data.payload.ticket_id === ticketId || m.data.payload.ticket?.id === ticketId);

async function newTicket(app: TestApp, cookie: string) {
  const res = await app.app.inject({ method: 'POST', url: '/api/ticket', headers: { cookie }, payload: { title: 'Network is slow', message: 'since 10:00' } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

async function staffReply(app: TestApp, cookie: string, ticketId: number, message: string) {
  const res = await app.app.inject({ method: 'POST', url: `/api/backoffice/ticket/${ticketId}/reply`, headers: { cookie }, payload: { message } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

describe('ticket stream (SSE)', () => {
  test('every change arrives as { type, payload } with an increasing id; heartbeats keep it open', async () => {
    const admin = await adminSession(t);
    const customer = await customerSession(t);
    const s = await stream(admin.cookie);
    assert.equal(s.status, 200);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);

    const ticket = await newTicket(t, customer.cookie);
    const created = await s.waitFor(ofType('NEW_TICKET', ticket.id));
    assert.equal(created.data.payload.ticket.title, 'Network is slow');
    assert.equal(created.data.payload.ticket.customer.email, customer.email);
    assert.equal(created.data.payload.message.message, 'since 10:00');

    await staffReply(t, admin.cookie, ticket.id, 'Looking into it');
    const reply = await s.waitFor(ofType('NEW_REPLY', ticket.id));
    assert.equal(reply.data.payload.message.message, 'Looking into it');
    assert.equal(reply.data.payload.message.sender_type, 'admin');
    const status = await s.waitFor(ofType('STATUS_CHANGED', ticket.id));
    assert.deepEqual([status.data.payload.from, status.data.payload.to], ['Open', 'In Progress']);

    await t.app.inject({ method: 'PATCH', url: `/api/backoffice/ticket/${ticket.id}/priority`, headers: { cookie: admin.cookie }, payload: { priority: 'High' } });
    const prio = await s.waitFor(ofType('PRIORITY_CHANGED', ticket.id));
    assert.deepEqual([prio.data.payload.from, prio.data.payload.to], ['Medium', 'High']);
    await t.app.inject({ method: 'PATCH', url: `/api/backoffice/ticket/${ticket.id}/assignment`, headers: { cookie: admin.cookie }, payload: { admin_id: admin.id } });
    const assigned = await s.waitFor(ofType('ASSIGNED', ticket.id));
    assert.equal(assigned.data.payload.assigned_admin.id, admin.id);

    const customerReply = await t.app.inject({ method: 'POST', url: `/api/ticket/${ticket.id}/reply`, headers: { cookie: customer.cookie }, payload: { message: 'thanks' } });
    assert.equal(customerReply.statusCode, 201);
    const fromCustomer = await s.waitFor((m) => ofType('NEW_REPLY', ticket.id)(m) && m.data.payload.message.sender_type === 'customer');
    assert.equal(fromCustomer.data.payload.message.message, 'thanks');

    const ids = s.messages.filter((m) => m.data).map((m) => Number(m.id));
    assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]!), `ids increase: ${ids}`);
    await s.waitFor((m) => m.comment === 'heartbeat', 3000);
  });

  test('Last-Event-ID resumes after the last event seen; unknown or pruned ids get a reset', async () => {
    const admin = await adminSession(t);
    const customer = await customerSession(t);
    const first = await stream(admin.cookie);
    const ticket = await newTicket(t, customer.cookie);
    const seen = await first.waitFor(ofType('NEW_TICKET', ticket.id));
    first.close();

    // missed while disconnected
    await staffReply(t, admin.cookie, ticket.id, 'missed one');
    await staffReply(t, admin.cookie, ticket.id, 'missed two');

    const resumed = await stream(admin.cookie, seen.id);
    const replayed = await resumed.waitFor((m) => m.data?.payload?.message?.message === 'missed two');
    const got = resumed.messages.filter((m) => m.data);
    assert.deepEqual(
      got.map((m) => m.data.type),
      ['NEW_REPLY', 'STATUS_CHANGED', 'NEW_REPLY'],
    );
    assert.ok(got.every((m) => Number(m.id) > Number(seen.id)));
    assert.equal(replayed.data.payload.ticket_id, ticket.id);
    // then live
    await staffReply(t, admin.cookie, ticket.id, 'live again');
    await resumed.waitFor((m) => m.data?.payload?.message?.message === 'live again');

    for (const bad of ['abc', '99999999999', '-1']) {
      const r = await stream(admin.cookie, bad);
      const reset = await r.waitFor((m) => m.event === 'reset');
      assert.equal(reset.data.type, 'RESET');
      assert.equal(reset.data.payload.reason, 'unknown_id');
      assert.ok(Number(reset.id) >= Number(replayed.id));
      r.close();
    }

    // a week later the old events are pruned: resuming from before them is a reset
    clock.advance(8 * 86_400_000);
    assert.ok((await t.container.services.ticketStream.prune()) > 0);
    const admin2 = await adminSession(t); // the old access token expired with the clock
    const late = await stream(admin2.cookie, seen.id);
    const reset = await late.waitFor((m) => m.event === 'reset');
    assert.equal(reset.data.payload.reason, 'too_old');
    // and from the reset's id it resumes normally
    late.close();
    const after = await stream(admin2.cookie, reset.id);
    const t2 = await newTicket(t, (await customerSession(t)).cookie);
    await after.waitFor(ofType('NEW_TICKET', t2.id));
    assert.equal(after.messages.filter((m) => m.event === 'reset').length, 0);
  });

  test('parallel writers: the stream gets every event once, in id order, and a resume from any of them misses nothing', async () => {
    const admin = await adminSession(t);
    const customers = await Promise.all(Array.from({ length: 8 }, () => customerSession(t)));
    const tickets = await Promise.all(customers.map((c) => newTicket(t, c.cookie)));
    const s = await stream(admin.cookie);
    const texts = customers.flatMap((c, i) => [0, 1, 2].map((k) => ({ c, ticket: tickets[i], text: `parallel ${i}-${k}` })));
    const answers = await Promise.all(
      texts.map(({ c, ticket, text }) => t.app.inject({ method: 'POST', url: `/api/ticket/${ticket.id}/reply`, headers: { cookie: c.cookie }, payload: { message: text } })),
    );
    assert.ok(answers.every((a) => a.statusCode === 201));
    for (const { text } of texts) await s.waitFor((m) => m.data?.payload?.message?.message === text);
    const live = s.messages.filter((m) => m.data).map((m) => Number(m.id));
    assert.equal(new Set(live).size, live.length, 'no event twice');
    assert.deepEqual(live, [...live].sort((a, b) => a - b));
    // resuming from the 5th event replays exactly the ones after it
    const from = live[4]!;
    const resumed = await stream(admin.cookie, String(from));
    await resumed.waitFor((m) => Number(m.id) === live.at(-1));
    assert.deepEqual(resumed.messages.filter((m) => m.data).map((m) => Number(m.id)), live.slice(5));
  });

  test('staff without ticket permission, and no cookie, are refused; an ended session closes the stream', async () => {
    const billing = await adminSession(t, { role: 'Admin Billing' });
    const refused = await stream(billing.cookie);
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).code, 'FORBIDDEN');
    const anonymous = await stream('');
    assert.equal(anonymous.status, 401);

    const support = await adminSession(t, { role: 'Admin Support' });
    const s = await stream(support.cookie);
    assert.equal(s.status, 200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/logout', headers: { cookie: support.cookie } });
    assert.equal(logout.statusCode, 200);
    await Promise.race([s.ended, new Promise((_, fail) => setTimeout(() => fail(new Error('stream still open after logout')), 3000))]);
  });

  test('a stream ends at the next heartbeat once its admin loses view_tickets (demoted, role changed, deleted); the answers say when a role change applies', async () => {
    const boss = await adminSession(t);
    const ended = (c: SseClient, what: string) =>
      Promise.race([c.ended, new Promise((_, fail) => setTimeout(() => fail(new Error(`stream still open after ${what}`)), 3000))]);

    // moved to a role without view_tickets (Admin Billing), the access token still saying otherwise
    const demoted = await adminSession(t, { role: 'Admin Support' });
    const s1 = await stream(demoted.cookie);
    assert.equal(s1.status, 200);
    await s1.waitFor((m) => m.comment === 'heartbeat', 3000);
    const change = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/admin/${demoted.id}/update-role`, headers: { cookie: boss.cookie }, payload: { role: 'Admin Billing' } });
    assert.equal(change.statusCode, 200, change.body);
    assert.doesNotMatch(change.json().message, /next login/);
    assert.match(change.json().message, /15 minutes/);
    await ended(s1, 'the demotion');

    // the role itself loses view_tickets
    const role = await createCustomRole(t, ['view_tickets', 'view_users']);
    const member = await createAdmin(t, { role });
    const memberCookie = await loginAdmin(t, member.email, member.password);
    const s2 = await stream(memberCookie);
    assert.equal(s2.status, 200);
    const sync = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/roles/${encodeURIComponent(role)}/permissions`, headers: { cookie: boss.cookie }, payload: { permissions: ['view_users'] } });
    assert.equal(sync.statusCode, 200, sync.body);
    assert.doesNotMatch(sync.json().message, /next login/);
    await ended(s2, 'the role lost view_tickets');

    // deleted
    const leaving = await adminSession(t, { role: 'Admin Support' });
    const s3 = await stream(leaving.cookie);
    assert.equal(s3.status, 200);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${leaving.id}/delete`, headers: { cookie: boss.cookie } })).statusCode, 200);
    await ended(s3, 'the admin was deleted');

    // a stream whose admin keeps the permission stays open across heartbeats
    const kept = await adminSession(t, { role: 'Admin Support' });
    const s4 = await stream(kept.cookie);
    await s4.waitFor((m) => m.comment === 'heartbeat', 3000);
    const beats = s4.messages.filter((m) => m.comment === 'heartbeat').length;
    await s4.waitFor((m) => m.comment === 'heartbeat' && s4.messages.filter((x) => x.comment === 'heartbeat').length > beats + 2, 3000);
  });

  test('two server processes on one database: a reply posted through one reaches an admin on the other', postgresOnly('two processes need one PostgreSQL database'), async () => {
    const second = await buildTestApp({ worker: false, clock, env, sameDatabaseAs: t });
    try {
      const secondBase = await listening(second.app);
      const admin = await adminSession(t);
      const customer = await customerSession(t);
      const ticket = await newTicket(t, customer.cookie);
      const s = await stream(admin.cookie, undefined, secondBase);
      assert.equal(s.status, 200);
      for (let i = 0; i < 3; i++) {
        const text = `cross-process reply ${i}`;
        const res = await t.app.inject({ method: 'POST', url: `/api/ticket/${ticket.id}/reply`, headers: { cookie: customer.cookie }, payload: { message: text } });
        assert.equal(res.statusCode, 201);
        await s.waitFor((m) => m.data?.payload?.message?.message === text, 10_000);
      }
      s.close();
    } finally {
      await second.close();
    }
  });
});

test('a plain GET without Accept: text/event-stream is answered 406, not left hanging', async () => {
  const admin = await adminSession(t);
  const res = await t.app.inject({ method: 'GET', url: STREAM, headers: { cookie: admin.cookie } });
  assert.equal(res.statusCode, 406);
  assert.equal(res.json().code, 'NOT_ACCEPTABLE');
  const json = await t.app.inject({ method: 'GET', url: STREAM, headers: { cookie: admin.cookie, accept: 'application/json' } });
  assert.equal(json.statusCode, 406);
});

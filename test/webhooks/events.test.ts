import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { deposit, invoiceRow, pgoneForm, postPgone } from '../helpers/money.js';
import { insertPrice } from '../charging/helpers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

// Every event type is emitted by the change it reports, in that change's transaction.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const END = Math.floor(Date.now() / HOUR) * HOUR;
const BASE = END - 8 * HOUR;
const clock = new ManualClock(new Date(BASE));
let t: TestApp;
let receiver: WebhookReceiver;

before(async () => {
  t = await buildTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  Object.assign(t.container.flows.customerSuspension, { suspendCustomer: async () => undefined, resumeCustomer: async () => undefined });
  receiver = await new WebhookReceiver().start();
});
after(async () => {
  await receiver.close();
  await t.close();
});

type Session = Awaited<ReturnType<typeof customerSession>>;

/** A customer with an endpoint that takes every event. */
async function subscriber(overrides: Parameters<typeof customerSession>[1] = {}): Promise<Session> {
  const s = await customerSession(t, overrides);
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url: receiver.url(`/c${s.id}`), event_types: ['*'] } });
  assert.equal(res.statusCode, 201, res.body);
  return s;
}

/** A cookie whose access token is alive at the clock's time (the clock moves by hours and days here). */
const logins = new Map<number, { cookie: string; at: number }>();
async function cookieOf(s: Session): Promise<string> {
  const known = logins.get(s.id);
  if (known && Math.abs(clock.now().getTime() - known.at) < 10 * 60_000) return known.cookie;
  const cookie = await loginCustomer(t, s.email, s.password);
  logins.set(s.id, { cookie, at: clock.now().getTime() });
  return cookie;
}

/** The customer's events as the API lists them, oldest first: [type, data]. */
async function eventsOf(s: Session): Promise<[string, any][]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/webhooks/events?limit=100', headers: { cookie: await cookieOf(s) } });
  assert.equal(res.statusCode, 200, res.body);
  return res
    .json()
    .data.reverse()
    .map((e: any) => [e.type, JSON.parse(e.payload).data]);
}
const ofType = async (s: Session, type: string) => (await eventsOf(s)).filter(([t]) => t === type).map(([, d]) => d);
const payloadsOf = async (s: Session, type: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/webhooks/events?type=${type}`, headers: { cookie: await cookieOf(s) } });
  return res.json().data.map((e: any) => e.payload as string);
};

describe('money events', () => {
  test('balance.low (runway), account.suspended, then a paid top-up: topup.credited and account.resumed', async () => {
    const boss = await adminSession(t);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/backoffice/setting/charging',
      headers: { cookie: boss.cookie },
      payload: { runway_warning_hours: 5, low_balance_warning_hours: 2, postpaid_due_days: 14, postpaid_suspend_grace_days: 7 },
    });
    assert.equal(put.statusCode, 200, put.body);
    await insertPrice(t, 'tier:981', '73000', new Date(BASE - HOUR).toISOString()); // 100.000000 an hour
    const c = await subscriber();
    await fund(t, c.id, '250.00');
    await t.container.services.metering.open({ customerId: c.id, resourceType: 'vm', resourceId: 'vm-ev', description: 'VM', priceKey: 'tier:981', locationId: 1, at: new Date(BASE) });
    for (let h = 1; h <= 3; h++) {
      clock.set(new Date(BASE + h * HOUR + 5 * 60_000));
      await t.container.services.charging.runHourly();
      await queueDrained(t);
    }
    // 150 → 1.5 h left (under 2: low balance), 50, −50: suspended
    assert.deepEqual(await ofType(c, 'balance.low'), [{ current_balance: 150.0, currency: 'IDR', threshold: null, hours_left: 1 }]);
    assert.match((await payloadsOf(c, 'balance.low'))[0], /"current_balance": 150\.00/);
    assert.deepEqual(await ofType(c, 'account.suspended'), [{ reason: 'INSUFFICIENT_BALANCE' }]);

    const invoice = await invoiceRow(t, (await deposit(t, c.id, { amount: 100000 })).invoice_id);
    const paid = await postPgone(t, pgoneForm(t, invoice));
    assert.equal(paid.statusCode, 200, paid.body);
    await queueDrained(t);
    const [credited] = await ofType(c, 'topup.credited');
    assert.equal(credited.invoice_id, invoice.id);
    assert.equal(credited.currency, 'IDR');
    assert.match((await payloadsOf(c, 'topup.credited'))[0], /"amount": 100000\.00[,}]/);
    assert.deepEqual(await ofType(c, 'account.resumed'), [{}]);
    assert.deepEqual((await eventsOf(c)).map(([type]) => type), ['balance.low', 'account.suspended', 'topup.credited', 'account.resumed']);
  });

  test('balance.low when a debit crosses the notification threshold', async () => {
    const c = await subscriber();
    await fund(t, c.id, '60000.00');
    const staff = await adminSession(t, { permissions: ['manage_balance'] });
    const res = await t.app.inject({ method: 'POST', url: `/api/backoffice/customer/${c.id}/balance`, headers: { cookie: staff.cookie }, payload: { type: 'DEDUCT', amount: 20000, description: 'correction' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await ofType(c, 'balance.low'), [{ current_balance: 40000, currency: 'IDR', threshold: 50000, hours_left: null }]);
  });

  test('postpaid: invoice.issued, invoice.overdue, account.suspended, then paying it: invoice.paid and account.resumed', async () => {
    const c = await subscriber({ billingType: 'POSTPAID' });
    const monthStart = Date.UTC(new Date(END).getUTCFullYear(), new Date(END).getUTCMonth() - 1, 1);
    await t.container.db.execute(
      sql`insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
          values (${c.id}, ${new Date(monthStart + HOUR).toISOString()}::timestamptz, true, 1, 1234.5, 1234.50, 0)`,
    );
    clock.set(new Date(END));
    assert.ok((await t.container.services.postpaid.issueMonthly(new Date(monthStart).toISOString().slice(0, 7))) >= 1);
    const [issued] = await ofType(c, 'invoice.issued');
    assert.equal(issued.period, new Date(monthStart).toISOString().slice(0, 7));
    assert.match((await payloadsOf(c, 'invoice.issued'))[0], /"total": 1234\.50[,}]/);

    clock.set(new Date(new Date(issued.due_at).getTime() + 60_000));
    await t.container.services.postpaid.overdueSweep();
    assert.deepEqual((await ofType(c, 'invoice.overdue')).map((d) => d.invoice_id), [issued.invoice_id]);
    clock.set(new Date(new Date(issued.due_at).getTime() + 8 * DAY));
    await t.container.services.postpaid.overdueSweep();
    assert.deepEqual(await ofType(c, 'account.suspended'), [{ reason: 'POSTPAID_OVERDUE' }]);

    await fund(t, c.id, '5000.00');
    const cookie = await cookieOf(c);
    const pay = await t.app.inject({ method: 'POST', url: '/api/billing/postpaid/payment', headers: { cookie }, payload: { invoice_ids: [issued.invoice_id], method_code: 'SP', gateway_name: 'pgone' } });
    assert.equal(pay.statusCode, 200, pay.body);
    assert.deepEqual((await ofType(c, 'invoice.paid')).map((d) => [d.invoice_id, d.number]), [[issued.invoice_id, issued.number]]);
    assert.deepEqual(await ofType(c, 'account.resumed'), [{}]);
  });
});

describe('resource events', () => {
  test('vm.state_changed through create, stop and delete', async () => {
    clock.set(new Date());
    const c = await subscriber();
    await fund(t, c.id);
    const created = await t.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie: c.cookie }, payload: { name: 'web-1', location_id: 1, tier_id: await seededTier(t) } });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id;
    await vmJobsDone(t);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.deepEqual(
      (await ofType(c, 'vm.state_changed')).map((d) => [d.vm_id, d.name, d.from, d.to]),
      [
        [id, 'web-1', null, 'Creating'],
        [id, 'web-1', 'Creating', 'Running'],
        [id, 'web-1', 'Running', 'Stopped'],
        [id, 'web-1', 'Stopped', 'Deleting'],
        [id, 'web-1', 'Deleting', 'Deleted'],
      ],
    );
  });

  test('network.state_changed: Creating, ACTIVE, Deleted', async () => {
    const c = await subscriber();
    await fund(t, c.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/network/private', headers: { cookie: c.cookie }, payload: { name: 'backend', location_id: 1, cidr: 24 } });
    assert.equal(res.statusCode, 201, res.body);
    const uuid = res.json().data.uuid;
    await vmJobsDone(t);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/network/private/${uuid}`, headers: { cookie: c.cookie } })).statusCode, 200);
    assert.deepEqual(
      (await ofType(c, 'network.state_changed')).map((d) => [d.network_uuid, d.from, d.to]),
      [
        [uuid, null, 'Creating'],
        [uuid, 'Creating', 'ACTIVE'],
        [uuid, 'ACTIVE', 'Deleted'],
      ],
    );
  });

  test('bucket.created when it becomes usable, bucket.deleted when it is gone', async () => {
    const c = await subscriber();
    await fund(t, c.id);
    const name = `ev-${c.id}-bucket`;
    const res = await t.app.inject({ method: 'POST', url: '/api/storage/object', headers: { cookie: c.cookie }, payload: { name, location_id: 1 } });
    assert.equal(res.statusCode, 201, res.body);
    const uuid = res.json().data.uuid;
    await vmJobsDone(t);
    assert.deepEqual(await ofType(c, 'bucket.created'), [{ bucket_uuid: uuid, name }]);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${uuid}`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.deepEqual(await ofType(c, 'bucket.deleted'), [{ bucket_uuid: uuid, name }]);
  });
});

describe('support events', () => {
  test('a staff reply: ticket.replied and ticket.status_changed; the customer closing it: ticket.status_changed', async () => {
    const c = await subscriber();
    const created = await t.app.inject({ method: 'POST', url: '/api/ticket', headers: { cookie: c.cookie }, payload: { title: 'Slow disk', message: 'since noon' } });
    assert.equal(created.statusCode, 201, created.body);
    const ticketId = created.json().data.id;
    const staff = await adminSession(t, { permissions: ['view_tickets', 'manage_tickets'] });
    const reply = await t.app.inject({ method: 'POST', url: `/api/backoffice/ticket/${ticketId}/reply`, headers: { cookie: staff.cookie }, payload: { message: 'looking into it' } });
    assert.equal(reply.statusCode, 201, reply.body);
    const customerReply = await t.app.inject({ method: 'POST', url: `/api/ticket/${ticketId}/reply`, headers: { cookie: c.cookie }, payload: { message: 'thanks' } });
    assert.equal(customerReply.statusCode, 201);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/ticket/${ticketId}/close`, headers: { cookie: c.cookie } })).statusCode, 200);
    assert.deepEqual(await eventsOf(c), [
      ['ticket.replied', { ticket_id: ticketId, message_id: reply.json().data.id }],
      ['ticket.status_changed', { ticket_id: ticketId, from: 'Open', to: 'In Progress' }],
      ['ticket.status_changed', { ticket_id: ticketId, from: 'In Progress', to: 'Closed' }],
    ]);
  });

  test('an account without an endpoint keeps no events', async () => {
    const c = await customerSession(t);
    const created = await t.app.inject({ method: 'POST', url: '/api/ticket', headers: { cookie: c.cookie }, payload: { title: 'x', message: 'y' } });
    const staff = await adminSession(t, { permissions: ['view_tickets', 'manage_tickets'] });
    const reply = await t.app.inject({ method: 'POST', url: `/api/backoffice/ticket/${created.json().data.id}/reply`, headers: { cookie: staff.cookie }, payload: { message: 'hello' } });
    assert.equal(reply.statusCode, 201);
    const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from webhook_events where customer_id = ${c.id}`);
    assert.equal(row!.n, 0);
  });
});

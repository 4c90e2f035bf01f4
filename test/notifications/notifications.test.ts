import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
let admin: { cookie: string };
before(async () => {
  t = await buildTestApp({ worker: false });
  admin = await adminSession(t);
});
after(() => t.close());

async function call(method: string, url: string, cookie: string, payload?: unknown) {
  const res = await t.app.inject({ method: method as any, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as any } : {}) });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}
const unread = async (cookie: string) => (await call('GET', '/api/inf', cookie)).body.data.unread_count;
const adjust = (customerId: number, type: 'ADD' | 'DEDUCT', amount: number) =>
  call('POST', `/api/backoffice/customer/${customerId}/balance`, admin.cookie, { type, amount, description: 'test' });

describe('customer notifications', () => {
  test('a new top-up invoice notifies the customer', async () => {
    const c = await customerSession(t);
    const dep = await call('POST', '/api/billing/deposit', c.cookie, { amount: 100000, method_code: 'BC', gateway_name: 'pgone' });
    assert.equal(dep.status, 200, dep.raw);
    assert.equal(await unread(c.cookie), 1);
    const [n] = (await call('GET', '/api/notifications', c.cookie)).body.data;
    assert.equal(n.kind, 'INVOICE_CREATED');
    assert.equal(n.reference_type, 'topup_invoice');
    assert.equal(n.reference_id, dep.body.data.invoice_id);
    assert.equal(n.is_read, false);
  });

  test('low balance: once when the balance drops below the threshold, again only after it recovered', async () => {
    const c = await customerSession(t);
    assert.equal((await adjust(c.id, 'ADD', 100000)).status, 200);
    assert.equal((await adjust(c.id, 'DEDUCT', 40000)).status, 200); // 60,000: still above
    assert.equal(await unread(c.cookie), 0);
    await adjust(c.id, 'DEDUCT', 20000); // 40,000: crosses
    await adjust(c.id, 'DEDUCT', 10000); // 30,000: already below
    let list = (await call('GET', '/api/notifications', c.cookie)).body.data;
    assert.deepEqual(list.map((n: any) => n.kind), ['LOW_BALANCE']);
    assert.equal(list[0].body, 'Your balance is IDR 40,000, below IDR 50,000. Top up to keep your resources running.');
    await adjust(c.id, 'ADD', 50000); // 80,000
    await adjust(c.id, 'DEDUCT', 60000); // 20,000: crosses again
    list = (await call('GET', '/api/notifications', c.cookie)).body.data;
    assert.deepEqual(list.map((n: any) => n.kind), ['LOW_BALANCE', 'LOW_BALANCE']);
  });

  test('list (unread filter), mark one read, mark all read; another customer\'s notification is a 404', async () => {
    const c = await customerSession(t);
    const other = await customerSession(t);
    const notifications = t.container.services.notifications;
    for (let i = 0; i < 3; i++) {
      await notifications.notify(c.id, 'SUSPENDED', { title: `n${i}`, body: 'b', reference: { type: 'test', id: i } });
    }
    // the same event twice is one notification
    assert.equal(await notifications.notify(c.id, 'SUSPENDED', { title: 'n0', body: 'b', reference: { type: 'test', id: 0 } }), false);
    const list = await call('GET', '/api/notifications?limit=2', c.cookie);
    assert.equal(list.body.meta.total, 3);
    assert.equal(list.body.meta.unread_count, 3);
    assert.deepEqual(list.body.data.map((n: any) => n.title), ['n2', 'n1']);

    const first = list.body.data[0];
    const read = await call('PATCH', `/api/notifications/${first.id}/read`, c.cookie);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.is_read, true);
    const readAt = read.body.data.read_at;
    assert.equal((await call('PATCH', `/api/notifications/${first.id}/read`, c.cookie)).body.data.read_at, readAt, 'repeating changes nothing');
    assert.equal(await unread(c.cookie), 2);
    const unreadOnly = await call('GET', '/api/notifications?unread=true', c.cookie);
    assert.deepEqual(unreadOnly.body.data.map((n: any) => n.title), ['n1', 'n0']);

    assert.equal((await call('PATCH', `/api/notifications/${first.id}/read`, other.cookie)).status, 404);
    assert.equal((await call('PATCH', '/api/notifications/999999999/read', c.cookie)).status, 404);
    assert.equal((await call('GET', '/api/notifications?unread=maybe', c.cookie)).status, 400);

    const all = await call('PATCH', '/api/notifications/read-all', c.cookie);
    assert.deepEqual(all.body.data, { marked: 2, unread_count: 0 });
    assert.equal(await unread(c.cookie), 0);
    assert.equal((await call('GET', '/api/notifications', other.cookie)).body.meta.total, 0);
  });
});

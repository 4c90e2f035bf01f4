import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { EVENT_TYPE_NAMES } from '../../src/modules/webhooks/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { client } from '../helpers/http.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const { post } = client(() => t);

describe('webhook endpoints', () => {
  test('the catalog lists every event type the docs promise', async () => {
    const s = await customerSession(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/webhooks/event-types', headers: { cookie: s.cookie } });
    assert.equal(res.statusCode, 200);
    const types = res.json().data.map((e: any) => e.type);
    assert.deepEqual(types, EVENT_TYPE_NAMES);
    for (const expected of ['topup.credited', 'invoice.issued', 'invoice.paid', 'invoice.overdue', 'balance.low', 'account.suspended', 'account.resumed', 'vm.state_changed', 'network.state_changed', 'bucket.created', 'bucket.deleted', 'ticket.replied', 'ticket.status_changed']) {
      assert.ok((types as string[]).includes(expected), expected);
    }
  });

  test('create shows the secret once and keeps it sealed; list, get, patch and delete; others see nothing', async () => {
    const s = await customerSession(t);
    const res = await post('/api/webhooks/endpoints', { url: 'https://hooks.example.com/in', event_types: ['vm.state_changed', 'topup.credited', 'vm.state_changed'], description: ' CI ' }, s.cookie);
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json().data;
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(created.event_types, ['topup.credited', 'vm.state_changed']);
    assert.equal(created.description, 'CI');
    assert.equal(created.enabled, true);
    const [row] = await queryRows<Record<string, unknown>>(t.container.db, sql`select * from webhook_endpoints where id = ${created.id}`);
    assert.ok(!JSON.stringify(row).includes(created.secret.slice(6)), 'the secret is stored sealed');

    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie } });
    assert.equal(list.json().data.length, 1);
    assert.ok(!list.body.includes(created.secret.slice(6)), 'never shown again');
    const get = await t.app.inject({ method: 'GET', url: `/api/webhooks/endpoints/${created.id}`, headers: { cookie: s.cookie } });
    assert.equal(get.json().data.url, 'https://hooks.example.com/in');
    assert.equal(get.json().data.secret, undefined);

    const all = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/endpoints/${created.id}`, headers: { cookie: s.cookie }, payload: { event_types: ['ticket.replied', '*'], enabled: false } });
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual([all.json().data.event_types, all.json().data.enabled, all.json().data.disabled_reason], [['*'], false, 'customer']);

    const other = await customerSession(t);
    for (const [method, url] of [['GET', `/api/webhooks/endpoints/${created.id}`], ['PATCH', `/api/webhooks/endpoints/${created.id}`], ['DELETE', `/api/webhooks/endpoints/${created.id}`], ['POST', `/api/webhooks/endpoints/${created.id}/rotate-secret`]] as const) {
      const r = await t.app.inject({ method, url, headers: { cookie: other.cookie }, ...(method === 'PATCH' ? { payload: { description: 'x' } } : {}) });
      assert.equal(r.statusCode, 404, `${method} ${url}`);
    }
    const del = await t.app.inject({ method: 'DELETE', url: `/api/webhooks/endpoints/${created.id}`, headers: { cookie: s.cookie } });
    assert.equal(del.statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/webhooks/endpoints/${created.id}`, headers: { cookie: s.cookie } })).statusCode, 404);
  });

  test('bad input is a 400 naming the field; at most 10 endpoints', async () => {
    const s = await customerSession(t);
    const bad = [
      { url: 'ftp://x.example.com', event_types: ['*'] },
      { url: 'https://user:pw@x.example.com/', event_types: ['*'] },
      { url: 'https://x.example.com/', event_types: [] },
      { url: 'https://x.example.com/', event_types: ['vm.exploded'] },
      { url: 'https://x.example.com/', event_types: ['*'], secret: 'mine' },
      { url: `https://x.example.com/${'a'.repeat(2100)}`, event_types: ['*'] },
    ];
    for (const payload of bad) assert.equal((await post('/api/webhooks/endpoints', payload, s.cookie)).statusCode, 400, JSON.stringify(payload).slice(0, 80));
    const empty = await t.app.inject({ method: 'PATCH', url: '/api/webhooks/endpoints/1', headers: { cookie: s.cookie }, payload: {} });
    assert.equal(empty.statusCode, 400);
    for (let i = 0; i < 10; i++) assert.equal((await post('/api/webhooks/endpoints', { url: `https://x.example.com/${i}`, event_types: ['*'] }, s.cookie)).statusCode, 201);
    const over = await post('/api/webhooks/endpoints', { url: 'https://x.example.com/11', event_types: ['*'] }, s.cookie);
    assert.equal(over.statusCode, 409);
    assert.equal(over.json().code, 'QUOTA_EXCEEDED');
  });
});

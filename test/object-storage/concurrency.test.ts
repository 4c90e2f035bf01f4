import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const stamp = `${process.pid}-${Date.now().toString(36)}`;

test('20 parallel creates against object_storage_limit 5: exactly 5 buckets, the rest 409 QUOTA_EXCEEDED', async () => {
  const c = await customerSession(t, { objectStorageLimit: 5 });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/storage/object', headers: { cookie: c.cookie }, payload: { name: `race-${stamp}-${i}`, location_id: 1 } })),
  );
  const codes = results.map((r) => r.statusCode);
  assert.equal(codes.filter((s) => s === 201).length, 5, codes.join(','));
  for (const r of results.filter((x) => x.statusCode !== 201)) assert.equal(r.json().code, 'QUOTA_EXCEEDED', r.body);
  const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from object_storage_buckets where customer_id = ${c.id}`);
  assert.equal(row!.n, 5);
  await queueDrained(t);
});

test('10 customers race for one bucket name: one wins, the others get 409 BUCKET_NAME_TAKEN', async () => {
  const sessions = await Promise.all(Array.from({ length: 10 }, () => customerSession(t)));
  const name = `contested-${stamp}`;
  const results = await Promise.all(sessions.map((s) => t.app.inject({ method: 'POST', url: '/api/storage/object', headers: { cookie: s.cookie }, payload: { name, location_id: 1 } })));
  const codes = results.map((r) => r.statusCode);
  assert.equal(codes.filter((s) => s === 201).length, 1, codes.join(','));
  for (const r of results.filter((x) => x.statusCode !== 201)) {
    assert.equal(r.statusCode, 409, r.body);
    assert.equal(r.json().code, 'BUCKET_NAME_TAKEN');
  }
  await queueDrained(t);
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { LocalObjectStorage } from '../../src/integrations/object-storage/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { retriesDue } from '../helpers/compute.js';

let t: TestApp;
let local: LocalObjectStorage;

before(async () => {
  t = await buildTestApp();
  assert.ok(t.container.objectStorage instanceof LocalObjectStorage, 'the embedded default is the local provider');
  local = t.container.objectStorage;
});
after(() => t.close());

let seq = 0;
const uniqueName = (prefix = 'bkt') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq++}`;

async function createBucket(cookie: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/storage/object', headers: { cookie }, payload: body });
}

async function statusOf(uuid: string): Promise<string | undefined> {
  const [row] = await queryRows<{ status: string }>(t.container.db, sql`select status from object_storage_buckets where uuid = ${uuid}`);
  return row?.status;
}

describe('buckets: backend failures, isolation, price and charges', () => {
  test('a bucket the backend refuses (name held by another tenant of the cluster) ends in Error, not in a retry loop', async () => {
    const c = await customerSession(t);
    const name = uniqueName('foreign');
    local.foreignBuckets.add(name);
    const b = (await createBucket(c.cookie, { name, location_id: 1 })).json().data;
    await queueDrained(t);
    assert.equal(await statusOf(b.uuid), 'Error');
    const failed = (await t.app.inject({ method: 'GET', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } })).json().data;
    assert.equal(failed.sync.state, 'failed');
    assert.equal(failed.sync.next_retry_at, null, 'a refusal is not tried again by itself');
  });

  test('a backend outage is retried with back-off by the sweep until the bucket exists', async () => {
    const c = await customerSession(t);
    const name = uniqueName();
    local.failNext = 1;
    const b = (await createBucket(c.cookie, { name, location_id: 1 })).json().data;
    await queueDrained(t);
    assert.equal(await statusOf(b.uuid), 'Creating');
    const failed = (await t.app.inject({ method: 'GET', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } })).json().data;
    assert.equal(failed.sync.state, 'failed');
    assert.equal(failed.sync.last_error, 'the object storage did not answer; the change is tried again by itself', "the backend's own words stay in the log");
    assert.ok(failed.sync.next_retry_at, 'an outage is tried again by itself');
    await retriesDue(t);
    assert.ok((await t.container.lifecycle.sweep()) >= 1);
    await queueDrained(t);
    assert.equal(await statusOf(b.uuid), 'Active');
    assert.ok(local.bucket(name));
  });

  test('another customer\'s bucket is a 404 for every verb', async () => {
    const owner = await customerSession(t);
    const other = await customerSession(t);
    const b = (await createBucket(owner.cookie, { name: uniqueName(), location_id: 1 })).json().data;
    await queueDrained(t);
    const h = { cookie: other.cookie };
    for (const r of [
      { method: 'GET' as const, url: `/api/storage/object/${b.uuid}` },
      { method: 'PATCH' as const, url: `/api/storage/object/${b.uuid}/acl`, payload: { public_acl: 'A' } },
      { method: 'PATCH' as const, url: `/api/storage/object/${b.uuid}/resize`, payload: { size: 50 } },
      { method: 'DELETE' as const, url: `/api/storage/object/${b.uuid}` },
    ]) {
      const res = await t.app.inject({ ...r, headers: h });
      assert.equal(res.statusCode, 404, `${r.method} ${r.url}: ${res.body}`);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    const key = (await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: h, payload: { name: 'k', location_id: 1 } })).json().data;
    const grant = await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: b.uuid, acl: 'Read_Write' } });
    assert.equal(grant.statusCode, 404);
    assert.equal(await statusOf(b.uuid), 'Active');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object', headers: h })).json().meta.total, 0);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object' })).statusCode, 401);
  });

  test('price: per GB-hour over the object_storage_gb component\'s price at the location (seeded 730 a GB-month), as the hourly charge bills it', async () => {
    const c = await customerSession(t);
    await createBucket(c.cookie, { name: uniqueName(), location_id: 1, size: 150 });
    const res = await t.app.inject({ method: 'GET', url: '/api/storage/object/price', headers: { cookie: c.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json().data;
    assert.equal(p.source, 'component');
    assert.equal(p.unit, 'GB');
    assert.equal(p.currency, 'IDR');
    assert.equal(p.location_id, 1);
    assert.deepEqual(p.tiers, [{ from_gb: 0, to_gb: null, price_per_gb_month: 730, price_per_gb_hour: 1 }]);
    assert.equal(p.provisioned_gb, 150);
    assert.equal(p.current_hourly_cost, 150);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object/price?location_id=999', headers: { cookie: c.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object/price?location=1', headers: { cookie: c.cookie } })).statusCode, 400);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { LocalObjectStorage } from '../../src/integrations/object-storage/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

const GB = 1024 ** 3;
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

describe('buckets', () => {
  test('create answers 201 Creating with the defaults (private, 10 GB); the job makes it Active with its quota at the backend', async () => {
    const c = await customerSession(t);
    const name = uniqueName();
    const res = await createBucket(c.cookie, { name, location_id: 1 });
    assert.equal(res.statusCode, 201, res.body);
    const b = res.json().data;
    assert.equal(b.name, name);
    assert.equal(b.public_acl, 'P');
    assert.equal(b.size, 10);
    assert.equal(b.location_id, 1);
    assert.equal(b.status, 'Creating');
    await queueDrained(t);
    assert.equal(await statusOf(b.uuid), 'Active');
    assert.deepEqual(local.bucket(name), { quotaBytes: 10 * GB, access: { publicRead: false, grants: [] } });

    const list = await t.app.inject({ method: 'GET', url: '/api/storage/object', headers: { cookie: c.cookie } });
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().meta.total, 1);
    assert.equal(list.json().data[0].status, 'Active');
    const detail = await t.app.inject({ method: 'GET', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } });
    assert.equal(detail.statusCode, 200);
    assert.deepEqual(detail.json().data.usage, { objects: 0, bytes: 0 });
  });

  test('the embedded default says plainly that it has no S3 data plane: data_plane false, endpoint null, and the create answers say how to get one', async () => {
    const c = await customerSession(t);
    const res = await createBucket(c.cookie, { name: uniqueName(), location_id: 1 });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.endpoint, null);
    assert.equal(res.json().data.data_plane, false);
    assert.match(res.json().message, /no S3 data plane/);
    assert.match(res.json().message, /OBJECT_STORAGE_PROVIDER=ceph/);
    const key = await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: { cookie: c.cookie }, payload: { name: 'k', location_id: 1 } });
    assert.equal(key.statusCode, 201, key.body);
    assert.equal(key.json().data.endpoint, null);
    assert.equal(key.json().data.data_plane, false);
    assert.match(key.json().message, /no S3 data plane/);
    assert.match(key.json().message, /OBJECT_STORAGE_PROVIDER=ceph/);
    const list = await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: { cookie: c.cookie } });
    assert.equal(list.json().data[0].data_plane, false);
    const buckets = await t.app.inject({ method: 'GET', url: '/api/storage/object', headers: { cookie: c.cookie } });
    assert.equal(buckets.json().data[0].data_plane, false);
  });

  test('names: 3 to 63 lowercase letters, digits and hyphens; anything else is a 400', async () => {
    const c = await customerSession(t);
    for (const name of ['ab', 'a'.repeat(64), 'Upper-case', 'under_score', '-leading', 'trailing-', 'dot.ted', 'spa ce', '']) {
      const res = await createBucket(c.cookie, { name, location_id: 1 });
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    for (const body of [{ name: uniqueName(), location_id: 1, public_acl: 'X' }, { name: uniqueName(), location_id: 1, size: 0 }, { name: uniqueName(), location_id: 999999 }, { name: uniqueName() }]) {
      const res = await createBucket(c.cookie, body);
      assert.equal(res.statusCode, 400, res.body);
    }
    const ok = await createBucket(c.cookie, { name: `a1-${'b'.repeat(58)}-9`.slice(0, 63), location_id: 1, public_acl: 'A', size: 1 });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('a name is unique system-wide: another customer gets 409 BUCKET_NAME_TAKEN', async () => {
    const a = await customerSession(t);
    const b = await customerSession(t);
    const name = uniqueName();
    assert.equal((await createBucket(a.cookie, { name, location_id: 1 })).statusCode, 201);
    const res = await createBucket(b.cookie, { name, location_id: 1 });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'BUCKET_NAME_TAKEN');
  });

  test('object_storage_limit is enforced (409 QUOTA_EXCEEDED); a deleted bucket frees its place and, once gone at the backend, its name', async () => {
    const c = await customerSession(t, { objectStorageLimit: 2 });
    const first = uniqueName();
    const one = (await createBucket(c.cookie, { name: first, location_id: 1 })).json().data;
    assert.equal((await createBucket(c.cookie, { name: uniqueName(), location_id: 1 })).statusCode, 201);
    const third = await createBucket(c.cookie, { name: uniqueName(), location_id: 1 });
    assert.equal(third.statusCode, 409);
    assert.equal(third.json().code, 'QUOTA_EXCEEDED');
    await queueDrained(t);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${one.uuid}`, headers: { cookie: c.cookie } })).statusCode, 200);
    await queueDrained(t);
    assert.equal(await statusOf(one.uuid), 'Deleted');
    assert.equal(local.bucket(first), undefined);
    const again = await createBucket(c.cookie, { name: first, location_id: 1 });
    assert.equal(again.statusCode, 201, again.body);
  });

  test('refused while a prepaid balance is below zero (402 INSUFFICIENT_BALANCE)', async () => {
    const c = await customerSession(t);
    await t.container.db.transaction((tx) =>
      t.container.services.wallet.debit(tx, { customerId: c.id, type: 'BalanceLogCharge', amount: '5', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: `neg-${c.id}`, description: 'test debt' }),
    );
    const res = await createBucket(c.cookie, { name: uniqueName(), location_id: 1 });
    assert.equal(res.statusCode, 402, res.body);
    assert.equal(res.json().code, 'INSUFFICIENT_BALANCE');
    // one rule for every billable resource and account: a postpaid wallet below zero gates storage too
    const postpaid = await customerSession(t, { billingType: 'POSTPAID' });
    assert.equal((await createBucket(postpaid.cookie, { name: uniqueName(), location_id: 1 })).statusCode, 201);
    await t.container.db.transaction((tx) =>
      t.container.services.wallet.debit(tx, { customerId: postpaid.id, type: 'BalanceLogCharge', amount: '5', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: `neg-${postpaid.id}`, description: 'test debt' }),
    );
    assert.equal((await createBucket(postpaid.cookie, { name: uniqueName(), location_id: 1 })).statusCode, 402);
  });

  test('public_acl A lets anonymous clients read; P takes it back', async () => {
    const c = await customerSession(t);
    const name = uniqueName();
    const b = (await createBucket(c.cookie, { name, location_id: 1 })).json().data;
    await queueDrained(t);
    assert.equal(local.authorize(undefined, name, 'read'), 'AccessDenied');
    const res = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/acl`, headers: { cookie: c.cookie }, payload: { public_acl: 'A' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.public_acl, 'A');
    await queueDrained(t);
    assert.equal(local.authorize(undefined, name, 'read'), 'allowed');
    assert.equal(local.authorize(undefined, name, 'write'), 'AccessDenied');
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/acl`, headers: { cookie: c.cookie }, payload: { public_acl: 'P' } });
    await queueDrained(t);
    assert.equal(local.authorize(undefined, name, 'read'), 'AccessDenied');
    const bad = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/acl`, headers: { cookie: c.cookie }, payload: { public_acl: 'public' } });
    assert.equal(bad.statusCode, 400);
  });

  test('resize sets the backend quota; not below what the bucket stores (409 BUCKET_TOO_SMALL)', async () => {
    const c = await customerSession(t);
    const name = uniqueName();
    const b = (await createBucket(c.cookie, { name, location_id: 1, size: 5 })).json().data;
    await queueDrained(t);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/resize`, headers: { cookie: c.cookie }, payload: { size: 20 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.size, 20);
    await queueDrained(t);
    assert.equal(local.bucket(name)!.quotaBytes, 20 * GB);
    // 3 GB stored: 2 GB is refused, 3 GB is fine
    (local as unknown as { buckets: Map<string, { objects: Map<string, number> }> }).buckets.get(name)!.objects.set('big', 3 * GB);
    const small = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/resize`, headers: { cookie: c.cookie }, payload: { size: 2 } });
    assert.equal(small.statusCode, 409);
    assert.equal(small.json().code, 'BUCKET_TOO_SMALL');
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/resize`, headers: { cookie: c.cookie }, payload: { size: 3 } })).statusCode, 200);
    for (const size of [0, -1, 1.5, '4']) {
      assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${b.uuid}/resize`, headers: { cookie: c.cookie }, payload: { size } })).statusCode, 400);
    }
  });

  test('delete only when empty (409 BUCKET_NOT_EMPTY); then 404 for every verb', async () => {
    const c = await customerSession(t);
    const name = uniqueName();
    const b = (await createBucket(c.cookie, { name, location_id: 1 })).json().data;
    await queueDrained(t);
    const objects = (local as unknown as { buckets: Map<string, { objects: Map<string, number> }> }).buckets.get(name)!.objects;
    objects.set('file.txt', 10);
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'BUCKET_NOT_EMPTY');
    objects.clear();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data, null);
    await queueDrained(t);
    assert.equal(local.bucket(name), undefined);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${b.uuid}`, headers: { cookie: c.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object', headers: { cookie: c.cookie } })).json().meta.total, 0);
  });
});

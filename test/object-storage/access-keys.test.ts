import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { LocalObjectStorage } from '../../src/integrations/object-storage/index.js';
import { keyUserId } from '../../src/modules/object-storage/index.js';
import { locations } from '../../src/modules/lookups/lookups.tables.js';
import { priceVersions } from '../../src/modules/pricing/price-versions.tables.js';
import { components } from '../../src/modules/pricing/pricing.tables.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
let local: LocalObjectStorage;

before(async () => {
  t = await buildTestApp();
  local = t.container.objectStorage as LocalObjectStorage;
});
after(() => t.close());

let seq = 0;
const uniqueName = () => `keys-${process.pid}-${Date.now().toString(36)}-${seq++}`;

async function setup() {
  const c = await customerSession(t);
  const h = { cookie: c.cookie };
  const name = uniqueName();
  const bucket = (await t.app.inject({ method: 'POST', url: '/api/storage/object', headers: h, payload: { name, location_id: 1, size: 1 } })).json().data;
  const created = await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: h, payload: { name: 'backup job', location_id: 1 } });
  assert.equal(created.statusCode, 201, created.body);
  await queueDrained(t);
  const key = created.json().data;
  return { c, h, name, bucket, key, creds: { accessKey: key.AccessKey as string, secretKey: key.SecretKey as string } };
}

describe('access keys', () => {
  test('create answers 201 with AccessKey and SecretKey once; the secret is never kept in clear and never listed', async () => {
    const { h, key, creds } = await setup();
    assert.match(key.AccessKey, /^[A-Z0-9]{20}$/);
    assert.match(key.SecretKey, /^[A-Za-z0-9]{40}$/);
    assert.equal(key.name, 'backup job');
    assert.equal(key.location_id, 1);
    assert.equal(key.is_active, true);
    assert.deepEqual(key.buckets, []);
    // the backend has the user with that key pair
    assert.deepEqual(local.user(keyUserId(key.AccessKey)), { accessKey: key.AccessKey, suspended: false });
    // nothing in the database holds the secret in clear; once the backend has it the sealed copy is gone too
    const [row] = await queryRows<{ secret_sealed: string | null; status: string }>(t.container.db, sql`select secret_sealed, status from object_storage_keys where access_key = ${key.AccessKey}`);
    assert.equal(row!.status, 'Active');
    assert.equal(row!.secret_sealed, null);
    const [dump] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from object_storage_keys k where k::text like ${'%' + creds.secretKey + '%'}`);
    assert.equal(dump!.n, 0);
    const [jobs] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from pgboss.job where data::text like ${'%' + creds.secretKey + '%'}`);
    assert.equal(jobs!.n, 0);

    const list = await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: h });
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().meta.total, 1);
    assert.equal(list.json().data[0].AccessKey, key.AccessKey);
    assert.equal(list.json().data[0].SecretKey, undefined);
    assert.ok(!list.body.includes(creds.secretKey));
  });

  test('the secret waits for the backend sealed (AES-GCM), not in clear', async () => {
    const c = await customerSession(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: { cookie: c.cookie }, payload: { name: 'k', location_id: 1 } });
    const { AccessKey, SecretKey } = res.json().data;
    const [row] = await queryRows<{ secret_sealed: string | null }>(t.container.db, sql`select secret_sealed from object_storage_keys where access_key = ${AccessKey}`);
    if (row!.secret_sealed !== null) {
      assert.match(row!.secret_sealed, /^v1\./);
      assert.ok(!row!.secret_sealed.includes(SecretKey));
    }
    await queueDrained(t);
  });

  test('grants: Read_Only reads but cannot write, Read_Write writes, the ACL can be changed, a revoked grant is refused', async () => {
    const { h, name, bucket, key, creds } = await setup();
    assert.equal(local.authorize(creds, name, 'read'), 'AccessDenied');
    const ro = await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Only' } });
    assert.equal(ro.statusCode, 200, ro.body);
    assert.deepEqual(ro.json().data.buckets, [{ bucket_uuid: bucket.uuid, bucket_name: name, acl: 'Read_Only' }]);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'allowed');
    assert.equal(local.put(creds, name, 'a.txt', 5), 'AccessDenied');

    const rw = await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Write' } });
    assert.equal(rw.statusCode, 200);
    assert.equal(rw.json().data.buckets[0].acl, 'Read_Write');
    await queueDrained(t);
    assert.equal(local.put(creds, name, 'a.txt', 5), 'allowed');
    assert.equal(local.put({ ...creds, secretKey: 'x'.repeat(40) }, name, 'b.txt', 5), 'SignatureDoesNotMatch');

    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${key.AccessKey}/buckets/${bucket.uuid}`, headers: h });
    assert.equal(revoke.statusCode, 200, revoke.body);
    assert.deepEqual(revoke.json().data.buckets, []);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'AccessDenied');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${key.AccessKey}/buckets/${bucket.uuid}`, headers: h })).statusCode, 404);
    for (const payload of [{ bucket_uuid: bucket.uuid, acl: 'Full' }, { bucket_uuid: 'nope', acl: 'Read_Only' }, { acl: 'Read_Only' }]) {
      assert.equal((await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload })).statusCode, 400);
    }
  });

  test('PATCH is_active disables the key at the backend and re-enables it', async () => {
    const { h, name, bucket, key, creds } = await setup();
    await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Write' } });
    await queueDrained(t);
    const off = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().data.is_active, false);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'UserSuspended');
    const on = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: true } });
    assert.equal(on.json().data.is_active, true);
    await queueDrained(t);
    assert.equal(local.put(creds, name, 'x', 1), 'allowed');
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: 'no' } })).statusCode, 400);
  });

  test('account suspension (charging\'s ResourceSuspender): every key refused until resumed, whatever is_active says', async () => {
    const { c, h, name, bucket, key, creds } = await setup();
    await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Write' } });
    await queueDrained(t);
    const storage = t.container.services.objectStorage;
    await storage.suspendCustomer(c.id, 'balance below zero');
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'UserSuspended');
    const listed = (await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: h })).json().data[0];
    assert.equal(listed.suspended, true);
    assert.equal(listed.is_active, true);
    // the customer re-enabling the key changes nothing while the account is suspended
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: false } });
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: true } });
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'UserSuspended');
    await storage.resumeCustomer(c.id);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'write'), 'allowed');
    // a key the customer disabled stays disabled after the account resumes
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h, payload: { is_active: false } });
    await storage.suspendCustomer(c.id, 'balance below zero');
    await storage.resumeCustomer(c.id);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'UserSuspended');
  });

  test('delete: the key is gone at the backend (clients get access denied) and from the account', async () => {
    const { h, name, bucket, key, creds } = await setup();
    await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Write' } });
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'write'), 'allowed');
    const res = await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h });
    assert.equal(res.statusCode, 200, res.body);
    await queueDrained(t);
    assert.equal(local.authorize(creds, name, 'read'), 'InvalidAccessKeyId');
    assert.equal(local.user(keyUserId(key.AccessKey)), undefined);
    assert.deepEqual(local.bucket(name)!.access.grants, []);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: h })).json().meta.total, 0);
    for (const r of [
      { method: 'PATCH' as const, url: `/api/storage/object/keys/${key.AccessKey}`, payload: { is_active: true } },
      { method: 'DELETE' as const, url: `/api/storage/object/keys/${key.AccessKey}` },
      { method: 'POST' as const, url: `/api/storage/object/keys/${key.AccessKey}/buckets`, payload: { bucket_uuid: bucket.uuid, acl: 'Read_Only' } },
    ]) {
      assert.equal((await t.app.inject({ ...r, headers: h })).statusCode, 404, `${r.method} ${r.url}`);
    }
  });

  test('a key deleted before its backend user existed never becomes usable', async () => {
    const c = await customerSession(t);
    const h = { cookie: c.cookie };
    const key = (await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: h, payload: { name: 'k', location_id: 1 } })).json().data;
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${key.AccessKey}`, headers: h })).statusCode, 200);
    await queueDrained(t);
    assert.equal(local.user(keyUserId(key.AccessKey)), undefined);
    const [row] = await queryRows<{ status: string; secret_sealed: string | null }>(t.container.db, sql`select status, secret_sealed from object_storage_keys where access_key = ${key.AccessKey}`);
    assert.deepEqual(row, { status: 'Deleted', secret_sealed: null });
  });

  test('another customer\'s key is a 404 for every verb', async () => {
    const { bucket, key } = await setup();
    const other = await customerSession(t);
    const h = { cookie: other.cookie };
    const own = (await t.app.inject({ method: 'POST', url: '/api/storage/object', headers: h, payload: { name: uniqueName(), location_id: 1 } })).json().data;
    for (const r of [
      { method: 'PATCH' as const, url: `/api/storage/object/keys/${key.AccessKey}`, payload: { is_active: false } },
      { method: 'POST' as const, url: `/api/storage/object/keys/${key.AccessKey}/buckets`, payload: { bucket_uuid: own.uuid, acl: 'Read_Write' } },
      { method: 'DELETE' as const, url: `/api/storage/object/keys/${key.AccessKey}/buckets/${bucket.uuid}` },
      { method: 'DELETE' as const, url: `/api/storage/object/keys/${key.AccessKey}` },
    ]) {
      const res = await t.app.inject({ ...r, headers: h });
      assert.equal(res.statusCode, 404, `${r.method} ${r.url}: ${res.body}`);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/storage/object/keys', headers: h })).json().meta.total, 0);
    await queueDrained(t);
    assert.equal(local.user(keyUserId(key.AccessKey))!.suspended, false);
  });

  test('price: a new price version of the component applies from its date; a location without one falls back to OBJECT_STORAGE_GB_MONTH_PRICE', async () => {
    const c = await customerSession(t);
    const h = { cookie: c.cookie };
    const [component] = await t.container.db.select({ id: components.id }).from(components).where(eq(components.code, 'object_storage_gb'));
    const priceKey = `component:${component!.id}`;
    await t.container.db.insert(priceVersions).values([
      { priceKey, locationId: 1, monthlyPrice: '1460.00', hourlyPrice: '2.000000', effectiveFrom: new Date('2021-01-01T00:00:00Z') },
      { priceKey, locationId: 1, monthlyPrice: '9999.00', hourlyPrice: '13.697260', effectiveFrom: new Date('2999-01-01T00:00:00Z') },
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/api/storage/object/price?location_id=1', headers: h });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.source, 'component');
    assert.deepEqual(
      res.json().data.tiers.map((x: { price_per_gb_month: number; price_per_gb_hour: number }) => [x.price_per_gb_month, x.price_per_gb_hour]),
      [[1460, 2]],
    );

    await t.container.db.insert(locations).values({ id: 4242, code: 'TST-OS', name: 'Test location', countryCode: 'ID', isActive: true });
    const fallback = await t.app.inject({ method: 'GET', url: '/api/storage/object/price?location_id=4242', headers: h });
    assert.equal(fallback.statusCode, 200, fallback.body);
    assert.equal(fallback.json().data.source, 'setting');
    assert.equal(fallback.json().data.tiers[0].price_per_gb_month, 1000);
    assert.equal(fallback.json().data.tiers[0].price_per_gb_hour, 1.369863);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { radosgwInstalled, startRadosgw, type Radosgw } from '../helpers/radosgw.js';

const MiB = 1024 * 1024;
const installed = radosgwInstalled();
if (!installed && process.env.CI) throw new Error('radosgw is not installed: .ci/run installs the Debian packages radosgw ceph-mon ceph-osd ceph-common');

let rgw: Radosgw;
let t: TestApp;

describe('object storage on a real Ceph RADOS Gateway, used through the AWS SDK as a customer would', { skip: installed ? false : 'radosgw is not installed (apt-get install radosgw ceph-mon ceph-osd ceph-common)' }, () => {
  before(async () => {
    rgw = await startRadosgw();
    t = await buildTestApp({
      env: {
        OBJECT_STORAGE_PROVIDER: 'ceph',
        OBJECT_STORAGE_ENDPOINT: rgw.endpoint,
        OBJECT_STORAGE_ACCESS_KEY: rgw.accessKey,
        OBJECT_STORAGE_SECRET_KEY: rgw.secretKey,
        // one quota "GB" is 1 MiB here, so the test can fill a bucket
        OBJECT_STORAGE_QUOTA_UNIT_BYTES: String(MiB),
      },
    });
  });
  after(async () => {
    await t?.close();
    await rgw?.stop();
  });

  const s3 = (creds: { AccessKey: string; SecretKey: string }, options: S3ClientConfig = {}) =>
    new S3Client({ endpoint: rgw.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: creds.AccessKey, secretAccessKey: creds.SecretKey }, maxAttempts: 1, ...options });
  const outcome = async (op: Promise<unknown>): Promise<string> => {
    try {
      await op;
      return 'ok';
    } catch (err) {
      return (err as Error).name;
    }
  };
  const read = (c: S3Client, bucket: string, key: string) => outcome(c.send(new GetObjectCommand({ Bucket: bucket, Key: key })).then((r) => r.Body!.transformToString()));
  const write = (c: S3Client, bucket: string, key: string, body: string | Buffer) => outcome(c.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })));
  const anonymous = async (bucket: string, key: string) => (await fetch(`${rgw.endpoint}/${bucket}/${key}`)).status;

  test('keys, grants, suspension, deletion, public reads, quota and delete-when-empty', async () => {
    const c = await customerSession(t);
    const h = { cookie: c.cookie };
    const name = `rgw-${process.pid}-${Date.now().toString(36)}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/storage/object', headers: h, payload: { name, location_id: 1, size: 1 } });
    assert.equal(created.statusCode, 201, created.body);
    const bucket = created.json().data;
    assert.equal(bucket.endpoint, rgw.endpoint);
    assert.equal(bucket.data_plane, true);
    assert.equal(created.json().message, 'Bucket created');
    const newKey = async (keyName: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/storage/object/keys', headers: h, payload: { name: keyName, location_id: 1 } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { AccessKey: string; SecretKey: string };
    };
    const reader = await newKey('reader');
    const writer = await newKey('writer');
    const grant = async (key: { AccessKey: string }, acl: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/storage/object/keys/${key.AccessKey}/buckets`, headers: h, payload: { bucket_uuid: bucket.uuid, acl } });
      assert.equal(res.statusCode, 200, res.body);
    };
    await grant(reader, 'Read_Only');
    await grant(writer, 'Read_Write');
    await queueDrained(t, {}, 60_000);
    const [row] = await queryRows<{ status: string }>(t.container.db, sql`select status from object_storage_buckets where uuid = ${bucket.uuid}`);
    assert.equal(row!.status, 'Active');

    const ro = s3(reader);
    const rw = s3(writer);
    // Read_Write writes; Read_Only reads but cannot write
    assert.equal(await write(rw, name, 'hello.txt', 'hello'), 'ok');
    assert.equal(await read(ro, name, 'hello.txt'), 'ok');
    assert.equal(await write(ro, name, 'nope.txt', 'x'), 'AccessDenied');
    // a wrong secret is refused
    assert.equal(await read(s3({ AccessKey: reader.AccessKey, SecretKey: 'x'.repeat(40) }), name, 'hello.txt'), 'SignatureDoesNotMatch');

    // the bucket refuses writes beyond its size (1 "GB" = 1 MiB here); without Expect: 100-continue,
    // since radosgw closes such a connection after its answer and a busy client may see only the reset
    assert.equal(await write(s3(writer, { expectContinueHeader: false }), name, 'big.bin', Buffer.alloc(2 * MiB)), 'QuotaExceeded');
    // resize: 3 "GB" lets it in
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${bucket.uuid}/resize`, headers: h, payload: { size: 3 } })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    assert.equal(await write(rw, name, 'big.bin', Buffer.alloc(2 * MiB)), 'ok');
    const detail = await t.app.inject({ method: 'GET', url: `/api/storage/object/${bucket.uuid}`, headers: h });
    assert.equal(detail.json().data.usage.objects, 2);
    // and a resize below what is stored is refused
    const tooSmall = await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${bucket.uuid}/resize`, headers: h, payload: { size: 1 } });
    assert.equal(tooSmall.json().code, 'BUCKET_TOO_SMALL');

    // private refuses anonymous reads; public serves them
    assert.equal(await anonymous(name, 'hello.txt'), 403);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${bucket.uuid}/acl`, headers: h, payload: { public_acl: 'A' } })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    assert.equal(await anonymous(name, 'hello.txt'), 200);
    assert.equal(await read(ro, name, 'hello.txt'), 'ok', 'grants survive the policy change');
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/${bucket.uuid}/acl`, headers: h, payload: { public_acl: 'P' } });
    await queueDrained(t, {}, 60_000);
    assert.equal(await anonymous(name, 'hello.txt'), 403);

    // a revoked grant is refused
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${reader.AccessKey}/buckets/${bucket.uuid}`, headers: h })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    assert.equal(await read(ro, name, 'hello.txt'), 'AccessDenied');
    assert.equal(await read(rw, name, 'hello.txt'), 'ok');

    // a disabled key is refused, and works again once re-enabled
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${writer.AccessKey}`, headers: h, payload: { is_active: false } })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    assert.notEqual(await read(rw, name, 'hello.txt'), 'ok');
    assert.notEqual(await write(rw, name, 'while-off.txt', 'x'), 'ok');
    await t.app.inject({ method: 'PATCH', url: `/api/storage/object/keys/${writer.AccessKey}`, headers: h, payload: { is_active: true } });
    await queueDrained(t, {}, 60_000);
    assert.equal(await read(rw, name, 'hello.txt'), 'ok');

    // a non-empty bucket cannot be deleted
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${bucket.uuid}`, headers: h });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'BUCKET_NOT_EMPTY');
    for (const key of ['hello.txt', 'big.bin']) assert.equal(await outcome(rw.send(new DeleteObjectCommand({ Bucket: name, Key: key }))), 'ok');

    // a deleted key is refused
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/keys/${writer.AccessKey}`, headers: h })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    assert.equal(await write(rw, name, 'after-delete.txt', 'x'), 'InvalidAccessKeyId');

    // the empty bucket is deleted at the backend
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/storage/object/${bucket.uuid}`, headers: h })).statusCode, 200);
    await queueDrained(t, {}, 60_000);
    const [gone] = await queryRows<{ status: string }>(t.container.db, sql`select status from object_storage_buckets where uuid = ${bucket.uuid}`);
    assert.equal(gone!.status, 'Deleted');
    assert.equal(await t.container.objectStorage.bucketUsage(name), null);
    ro.destroy();
    rw.destroy();
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { LocalObjectStorage } from './local.js';
import { bucketPolicy } from './policy.js';

const key = { accessKey: 'AAAAAAAAAAAAAAAAAAAA', secretKey: 's'.repeat(40) };

test('local provider: with a file its state survives a restart, and it keeps only a hash of each secret', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'chp-os-')), 'object-storage.json');
  const a = new LocalObjectStorage(file);
  await a.ensureBucket('photos', 1000);
  await a.ensureKeyUser('u1', { ...key, suspended: false });
  await a.setBucketAccess('photos', { publicRead: true, grants: [{ userId: 'u1', acl: 'Read_Write' }] });
  assert.equal(a.put(key, 'photos', 'x.jpg', 400), 'allowed');
  assert.ok(!readFileSync(file, 'utf8').includes(key.secretKey));

  const b = new LocalObjectStorage(file);
  assert.deepEqual(await b.bucketUsage('photos'), { objects: 1, bytes: 400 });
  assert.equal(b.authorize(key, 'photos', 'write'), 'allowed');
  assert.equal(b.authorize(undefined, 'photos', 'read'), 'allowed');
  assert.equal(b.put(key, 'photos', 'y.jpg', 700), 'QuotaExceeded');
  assert.equal(await b.deleteBucket('photos'), 'not_empty');
  await b.ensureKeyUser('u1', { accessKey: key.accessKey, suspended: true });
  assert.equal(new LocalObjectStorage(file).authorize(key, 'photos', 'read'), 'UserSuspended');
  await b.deleteKeyUser('u1');
  assert.equal(new LocalObjectStorage(file).authorize(key, 'photos', 'read'), 'InvalidAccessKeyId');
});

test('bucket policy: public reads for everyone, key grants by ACL, nothing when nothing is granted', () => {
  assert.equal(bucketPolicy('b', { publicRead: false, grants: [] }), null);
  const p = bucketPolicy('b', {
    publicRead: true,
    grants: [
      { userId: 'k2', acl: 'Read_Write' },
      { userId: 'k1', acl: 'Read_Only' },
    ],
  }) as { Statement: { Sid: string; Principal: unknown; Action: string[]; Resource: string[] }[] };
  assert.deepEqual(
    p.Statement.map((s) => [s.Sid, s.Principal]),
    [
      ['public-read', '*'],
      ['keys-read-only', { AWS: ['arn:aws:iam:::user/k1'] }],
      ['keys-read-write', { AWS: ['arn:aws:iam:::user/k2'] }],
    ],
  );
  assert.deepEqual(p.Statement[0]!.Action, ['s3:GetObject']);
  assert.ok(!p.Statement[1]!.Action.includes('s3:PutObject'));
  assert.ok(p.Statement[2]!.Action.includes('s3:PutObject'));
  assert.deepEqual(p.Statement[1]!.Resource, ['arn:aws:s3:::b', 'arn:aws:s3:::b/*']);
});

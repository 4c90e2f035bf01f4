import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { bucketPolicy } from './policy.js';
import {
  ObjectStoragePermanentError,
  type BucketAccess,
  type BucketUsage,
  type DeleteBucketResult,
  type KeyUserSpec,
  type ObjectStorageProvider,
} from './types.js';

interface LocalBucket {
  quotaBytes: number;
  access: BucketAccess;
  objects: Map<string, number>;
}

interface LocalUser {
  accessKey: string;
  /** SHA-256 of the secret: this simulated backend never needs it back */
  secretHash: string;
  suspended: boolean;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface SavedState {
  buckets: [string, { quotaBytes: number; access: BucketAccess; objects: [string, number][] }][];
  users: [string, LocalUser][];
}

export type LocalDecision = 'allowed' | 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'UserSuspended' | 'NoSuchBucket' | 'QuotaExceeded';

/**
 * The embedded default: the same control plane as radosgw, kept in this process (buckets with
 * quotas and policies, one user per access key, suspension). It stores no object data; `put`
 * and `authorize` let tests and the embedded demo check what a client with a key may do. With a
 * `file` (the embedded default on disk) its state survives restarts, as the database does.
 */
export class LocalObjectStorage implements ObjectStorageProvider {
  readonly kind = 'local' as const;
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly users = new Map<string, LocalUser>();
  /** bucket names another tenant of the backend holds (tests of the permanent failure) */
  readonly foreignBuckets = new Set<string>();
  /** next calls fail with this error (tests of the jobs' retries) */
  failNext = 0;

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
      for (const [name, b] of saved.buckets) this.buckets.set(name, { quotaBytes: b.quotaBytes, access: b.access, objects: new Map(b.objects) });
      for (const [id, u] of saved.users) this.users.set(id, u);
    }
  }

  private save(): void {
    if (!this.file) return;
    const state: SavedState = {
      buckets: [...this.buckets].map(([name, b]) => [name, { quotaBytes: b.quotaBytes, access: b.access, objects: [...b.objects] }]),
      users: [...this.users],
    };
    writeFileSync(`${this.file}.tmp`, JSON.stringify(state), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }

  private maybeFail(): void {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('local object storage: simulated outage');
    }
  }

  async ensureBucket(name: string, quotaBytes: number): Promise<void> {
    this.maybeFail();
    if (this.foreignBuckets.has(name)) throw new ObjectStoragePermanentError(`bucket ${name} is owned by another user of the backend`, 'BucketAlreadyExists');
    const b = this.buckets.get(name);
    if (b) b.quotaBytes = quotaBytes;
    else this.buckets.set(name, { quotaBytes, access: { publicRead: false, grants: [] }, objects: new Map() });
    this.save();
  }

  async setBucketAccess(name: string, access: BucketAccess): Promise<void> {
    this.maybeFail();
    const b = this.buckets.get(name);
    if (!b) throw new Error(`NoSuchBucket ${name}`);
    bucketPolicy(name, access); // the same document radosgw would get
    b.access = { publicRead: access.publicRead, grants: access.grants.map((g) => ({ ...g })) };
    this.save();
  }

  async bucketUsage(name: string): Promise<BucketUsage | null> {
    this.maybeFail();
    const b = this.buckets.get(name);
    if (!b) return null;
    let bytes = 0;
    for (const size of b.objects.values()) bytes += size;
    return { objects: b.objects.size, bytes };
  }

  async deleteBucket(name: string): Promise<DeleteBucketResult> {
    this.maybeFail();
    const b = this.buckets.get(name);
    if (!b) return 'missing';
    if (b.objects.size > 0) return 'not_empty';
    this.buckets.delete(name);
    this.save();
    return 'deleted';
  }

  async ensureKeyUser(userId: string, spec: KeyUserSpec): Promise<void> {
    this.maybeFail();
    const u = this.users.get(userId);
    if (u) {
      u.suspended = spec.suspended;
      this.save();
      return;
    }
    if (!spec.secretKey) throw new ObjectStoragePermanentError(`user ${userId} is missing and its secret is no longer known`, 'SECRET_GONE');
    for (const other of this.users.values()) {
      if (other.accessKey === spec.accessKey) throw new ObjectStoragePermanentError('access key in use', 'KeyExists');
    }
    this.users.set(userId, { accessKey: spec.accessKey, secretHash: sha256(spec.secretKey), suspended: spec.suspended });
    this.save();
  }

  async deleteKeyUser(userId: string): Promise<void> {
    this.maybeFail();
    if (this.users.delete(userId)) this.save();
  }

  /** What radosgw would answer a client: anonymous when `key` is undefined. */
  authorize(key: { accessKey: string; secretKey: string } | undefined, bucket: string, op: 'read' | 'write'): LocalDecision {
    const b = this.buckets.get(bucket);
    let userId: string | undefined;
    if (key) {
      const entry = [...this.users.entries()].find(([, u]) => u.accessKey === key.accessKey);
      if (!entry) return 'InvalidAccessKeyId';
      if (entry[1].secretHash !== sha256(key.secretKey)) return 'SignatureDoesNotMatch';
      if (entry[1].suspended) return 'UserSuspended';
      userId = entry[0];
    }
    if (!b) return 'NoSuchBucket';
    if (!userId) return op === 'read' && b.access.publicRead ? 'allowed' : 'AccessDenied';
    const grant = b.access.grants.find((g) => g.userId === userId);
    if (!grant) return op === 'read' && b.access.publicRead ? 'allowed' : 'AccessDenied';
    return op === 'read' || grant.acl === 'Read_Write' ? 'allowed' : 'AccessDenied';
  }

  /** A client writes an object with `key` (the checks radosgw makes, then the quota). */
  put(key: { accessKey: string; secretKey: string }, bucket: string, object: string, bytes: number): LocalDecision {
    const decision = this.authorize(key, bucket, 'write');
    if (decision !== 'allowed') return decision;
    const b = this.buckets.get(bucket)!;
    let used = 0;
    for (const [name, size] of b.objects) if (name !== object) used += size;
    if (used + bytes > b.quotaBytes) return 'QuotaExceeded';
    b.objects.set(object, bytes);
    this.save();
    return 'allowed';
  }

  /** Control-plane view for tests. */
  bucket(name: string): { quotaBytes: number; access: BucketAccess } | undefined {
    const b = this.buckets.get(name);
    return b && { quotaBytes: b.quotaBytes, access: b.access };
  }

  user(userId: string): { accessKey: string; suspended: boolean } | undefined {
    const u = this.users.get(userId);
    return u && { accessKey: u.accessKey, suspended: u.suspended };
  }
}

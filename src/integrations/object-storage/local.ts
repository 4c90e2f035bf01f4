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
  secretKey: string;
  suspended: boolean;
}

export type LocalDecision = 'allowed' | 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'UserSuspended' | 'NoSuchBucket' | 'QuotaExceeded';

/**
 * The embedded default: the same control plane as radosgw, kept in this process (buckets with
 * quotas and policies, one user per access key, suspension). It stores no object data; `put`
 * and `authorize` let tests and the embedded demo check what a client with a key may do.
 */
export class LocalObjectStorage implements ObjectStorageProvider {
  readonly kind = 'local' as const;
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly users = new Map<string, LocalUser>();
  /** bucket names another tenant of the backend holds (tests of the permanent failure) */
  readonly foreignBuckets = new Set<string>();
  /** next calls fail with this error (tests of the jobs' retries) */
  failNext = 0;

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
  }

  async setBucketAccess(name: string, access: BucketAccess): Promise<void> {
    this.maybeFail();
    const b = this.buckets.get(name);
    if (!b) throw new Error(`NoSuchBucket ${name}`);
    bucketPolicy(name, access); // the same document radosgw would get
    b.access = { publicRead: access.publicRead, grants: access.grants.map((g) => ({ ...g })) };
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
    return 'deleted';
  }

  async ensureKeyUser(userId: string, spec: KeyUserSpec): Promise<void> {
    this.maybeFail();
    const u = this.users.get(userId);
    if (u) {
      u.suspended = spec.suspended;
      return;
    }
    if (!spec.secretKey) throw new ObjectStoragePermanentError(`user ${userId} is missing and its secret is no longer known`, 'SECRET_GONE');
    for (const other of this.users.values()) {
      if (other.accessKey === spec.accessKey) throw new ObjectStoragePermanentError('access key in use', 'KeyExists');
    }
    this.users.set(userId, { accessKey: spec.accessKey, secretKey: spec.secretKey, suspended: spec.suspended });
  }

  async deleteKeyUser(userId: string): Promise<void> {
    this.maybeFail();
    this.users.delete(userId);
  }

  /** What radosgw would answer a client: anonymous when `key` is undefined. */
  authorize(key: { accessKey: string; secretKey: string } | undefined, bucket: string, op: 'read' | 'write'): LocalDecision {
    const b = this.buckets.get(bucket);
    let userId: string | undefined;
    if (key) {
      const entry = [...this.users.entries()].find(([, u]) => u.accessKey === key.accessKey);
      if (!entry) return 'InvalidAccessKeyId';
      if (entry[1].secretKey !== key.secretKey) return 'SignatureDoesNotMatch';
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

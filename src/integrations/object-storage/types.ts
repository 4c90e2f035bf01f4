/**
 * The object-storage control plane the platform drives (docs/decisions.md §6): buckets with a size quota
 * and an access policy, and one backend user per customer access key. The platform owns every
 * bucket; a key reaches a bucket only through a grant in that bucket's policy.
 */
export type BucketAcl = 'Read_Only' | 'Read_Write';

export interface BucketGrant {
  /** backend user of the access key */
  userId: string;
  acl: BucketAcl;
}

export interface BucketAccess {
  /** anonymous clients may read objects (public_acl A) */
  publicRead: boolean;
  grants: BucketGrant[];
}

export interface BucketUsage {
  objects: number;
  bytes: number;
}

export interface KeyUserSpec {
  accessKey: string;
  /** needed only to create the user; a user that exists keeps its key */
  secretKey?: string;
  suspended: boolean;
}

export type DeleteBucketResult = 'deleted' | 'not_empty' | 'missing';

export interface ObjectStorageProvider {
  readonly kind: 'ceph' | 'local';
  /** Creates the bucket when missing (idempotent) and sets its size quota. */
  ensureBucket(name: string, quotaBytes: number): Promise<void>;
  /** Replaces the bucket's access policy (public reads and key grants). */
  setBucketAccess(name: string, access: BucketAccess): Promise<void>;
  /** Objects and bytes stored, or null when the bucket does not exist. */
  bucketUsage(name: string): Promise<BucketUsage | null>;
  /** Deletes an empty bucket; a bucket with objects is left alone. */
  deleteBucket(name: string): Promise<DeleteBucketResult>;
  /** Creates the key's user when missing (with the given key pair) and sets its suspension. */
  ensureKeyUser(userId: string, spec: KeyUserSpec): Promise<void>;
  /** Removes the key's user and its keys (idempotent). */
  deleteKeyUser(userId: string): Promise<void>;
}

/** The backend refused for a reason a retry will not fix (bucket name owned elsewhere, bad input). */
export class ObjectStoragePermanentError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ObjectStoragePermanentError';
  }
}

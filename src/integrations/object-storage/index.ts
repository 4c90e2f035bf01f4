export type {
  BucketAcl,
  BucketAccess,
  BucketGrant,
  BucketUsage,
  DeleteBucketResult,
  KeyUserSpec,
  ObjectStorageProvider,
} from './types.js';
export { ObjectStoragePermanentError } from './types.js';
export { CephObjectStorage, type CephOptions } from './ceph.js';
export { LocalObjectStorage, type LocalDecision } from './local.js';
export { bucketPolicy } from './policy.js';
export { FolderBlobStore, S3BlobStore, type BlobStore, type StoredBlob } from './blob-store.js';

import { CephObjectStorage } from './ceph.js';
import { LocalObjectStorage } from './local.js';
import type { ObjectStorageProvider } from './types.js';
import { FolderBlobStore, S3BlobStore, type BlobStore } from './blob-store.js';

export interface ObjectStorageSettings {
  provider: 'local' | 'ceph';
  endpoint: string | undefined;
  accessKey: string | undefined;
  secretKey: string | undefined;
  region: string;
  /** local provider: keep its state in this file (unset: in memory) */
  localStateFile?: string;
}

export function createObjectStorage(s: ObjectStorageSettings): ObjectStorageProvider & { close?(): void } {
  if (s.provider === 'ceph') {
    return new CephObjectStorage({ endpoint: s.endpoint!, accessKey: s.accessKey!, secretKey: s.secretKey!, region: s.region });
  }
  return new LocalObjectStorage(s.localStateFile);
}

/**
 * The platform's own bucket of VM backups: on radosgw with the platform's keys (ceph), or a folder
 * (local: `dir`, under the data folder of the embedded default).
 */
export function createBackupStore(s: ObjectStorageSettings & { backupBucket: string }, dir: string): BlobStore & { close?(): void } {
  if (s.provider === 'ceph') return new S3BlobStore({ endpoint: s.endpoint!, accessKey: s.accessKey!, secretKey: s.secretKey!, region: s.region, bucket: s.backupBucket });
  return new FolderBlobStore(dir);
}

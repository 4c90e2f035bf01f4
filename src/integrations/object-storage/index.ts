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

import { CephObjectStorage } from './ceph.js';
import { LocalObjectStorage } from './local.js';
import type { ObjectStorageProvider } from './types.js';

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

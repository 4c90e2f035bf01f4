import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { decryptSecret, encryptSecret } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, QuotaExceededError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { defineJob, type JobQueue } from '../../platform/queue/queue.js';
import { ObjectStoragePermanentError, type BucketUsage, type ObjectStorageProvider } from '../../integrations/object-storage/index.js';
import type { BucketRow, GrantAcl, KeyGrantRow, KeyRow, ObjectStorageRepository } from './object-storage.repository.js';
import { hourlyCost, priceTiers } from './object-storage.pricing.js';
import type { BillableStartRule } from '../charging/index.js';


export interface ObjectStorageOptions {
  encryptionKey: Buffer;
  quotaUnitBytes: number;
  gbMonthPrice: string;
  currency: string;
  publicEndpoint: string | undefined;
}

export const BUCKET_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/** Access keys a customer may hold at once. */
export const MAX_KEYS_PER_CUSTOMER = 50;
export const DEFAULT_BUCKET_SIZE_GB = 10;
/** The pricing component whose price versions price a GB-month of bucket size. */
export const OBJECT_STORAGE_COMPONENT = 'object_storage_gb';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomString(alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

/** A key is refused at the backend when its owner disabled it or the account is suspended. */
const refused = (k: KeyRow) => !k.isActive || k.suspended;

/** The backend user that holds one access key. */
export function keyUserId(accessKey: string): string {
  return `chp-key-${accessKey.toLowerCase()}`;
}

export interface CreateBucketInput {
  name: string;
  location_id: number;
  public_acl?: 'A' | 'P';
  size?: number;
}

export interface KeyView extends KeyRow {
  grants: KeyGrantRow[];
}

class StorageUnavailableError extends AppError {
  constructor() {
    super(503, 'STORAGE_UNAVAILABLE', 'Object storage is not reachable right now, please try again', undefined, { 'retry-after': '30' });
  }
}

/** Told when a bucket starts costing money (Active), changes size (any status), or stops (Deleted), in that transaction (meters). */
export interface BucketLifecycleListener {
  bucketActive(tx: Executor, bucket: BucketRow): Promise<void>;
  bucketResized(tx: Executor, bucket: BucketRow): Promise<void>;
  bucketDeleted(tx: Executor, bucket: BucketRow): Promise<void>;
}

export class ObjectStorageService {
  private readonly lifecycle: BucketLifecycleListener[] = [];

  /** Wired by the container (meters). */
  onLifecycle(listener: BucketLifecycleListener): void {
    this.lifecycle.push(listener);
  }

  constructor(
    private readonly db: Database,
    private readonly repo: ObjectStorageRepository,
    private readonly provider: ObjectStorageProvider,
    private readonly queue: JobQueue,
    private readonly billable: BillableStartRule,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: ObjectStorageOptions,
  ) {}

  get endpoint(): string | null {
    return this.opts.publicEndpoint ?? null;
  }

  // ---- buckets -------------------------------------------------------------------------------

  async createBucket(customerId: number, input: CreateBucketInput): Promise<BucketRow> {
    const name = input.name;
    if (!BUCKET_NAME_PATTERN.test(name)) {
      throw new ValidationError('Validation failed', [{ field: 'name', message: '3 to 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit' }]);
    }
    const size = input.size ?? DEFAULT_BUCKET_SIZE_GB;
    return this.db.transaction(async (tx) => {
      const customer = await this.repo.lockCustomer(tx, customerId);
      if (!customer) throw new NotFoundError('Customer');
      if (!(await this.repo.activeLocation(tx, input.location_id))) {
        throw new ValidationError('Validation failed', [{ field: 'location_id', message: 'no active location with this id' }]);
      }
      await this.billable.assertMayStart(tx, customerId);
      const live = await this.repo.countLiveBuckets(tx, customerId);
      if (live >= customer.objectStorageLimit) throw new QuotaExceededError(`Your account may have at most ${customer.objectStorageLimit} buckets`);
      if (await this.repo.nameTaken(tx, name)) throw new ConflictError('A bucket with this name exists', 'BUCKET_NAME_TAKEN');
      const now = this.clock.now();
      const row = await this.repo.insertBucket(tx, {
        customerId,
        name,
        locationId: input.location_id,
        publicAcl: input.public_acl ?? 'P',
        sizeGb: size,
        status: 'Creating',
        createdAt: now,
        updatedAt: now,
      });
      await this.syncBucketLater(tx, row.id);
      return row;
    });
  }

  listBuckets(customerId: number, p: PageRequest): Promise<Page<BucketRow>> {
    return this.repo.listBuckets(this.db, customerId, p);
  }

  async getBucket(customerId: number, uuid: string): Promise<{ bucket: BucketRow; usage: BucketUsage | null }> {
    const bucket = await this.bucketOf(customerId, uuid);
    return { bucket, usage: bucket.status === 'Creating' ? null : await this.usageOf(bucket) };
  }

  async setPublicAcl(customerId: number, uuid: string, publicAcl: 'A' | 'P'): Promise<BucketRow> {
    return this.db.transaction(async (tx) => {
      const bucket = await this.lockedBucket(tx, customerId, uuid);
      if (bucket.publicAcl === publicAcl) return bucket;
      const row = await this.repo.updateBucket(tx, bucket.id, { publicAcl, updatedAt: this.clock.now() });
      await this.syncBucketLater(tx, row.id);
      return row;
    });
  }

  async resize(customerId: number, uuid: string, sizeGb: number): Promise<BucketRow> {
    const before = await this.bucketOf(customerId, uuid);
    // Read at the backend before the transaction: a quota below what is stored is refused.
    const usage = before.status === 'Creating' ? null : await this.usageOf(before);
    if (usage && usage.bytes > sizeGb * this.opts.quotaUnitBytes) {
      throw new ConflictError(`The bucket holds more than ${sizeGb} GB; delete objects first`, 'BUCKET_TOO_SMALL');
    }
    return this.db.transaction(async (tx) => {
      const bucket = await this.lockedBucket(tx, customerId, uuid);
      if (bucket.sizeGb === sizeGb) return bucket;
      if (sizeGb > bucket.sizeGb) {
        await this.billable.assertMayStart(tx, customerId);
      }
      const row = await this.repo.updateBucket(tx, bucket.id, { sizeGb, updatedAt: this.clock.now() });
      for (const l of this.lifecycle) await l.bucketResized(tx, row);
      await this.syncBucketLater(tx, row.id);
      return row;
    });
  }

  async deleteBucket(customerId: number, uuid: string): Promise<void> {
    const bucket = await this.bucketOf(customerId, uuid);
    if (bucket.status === 'Deleting') return;
    const usage = bucket.status === 'Creating' ? null : await this.usageOf(bucket);
    if (usage && usage.objects > 0) throw new ConflictError('The bucket is not empty; delete its objects first', 'BUCKET_NOT_EMPTY');
    await this.db.transaction(async (tx) => {
      const row = await this.repo.findBucket(tx, customerId, uuid, true);
      if (!row || row.status === 'Deleting') return;
      await this.repo.updateBucket(tx, row.id, { status: 'Deleting', updatedAt: this.clock.now() });
      await this.syncBucketLater(tx, row.id);
    });
  }

  // ---- price ---------------------------------------------------------------------------------

  async price(customerId: number, locationId: number) {
    if (!(await this.repo.activeLocation(this.db, locationId))) throw new NotFoundError('Location');
    const fromComponent = await this.repo.componentMonthlyPrice(this.db, OBJECT_STORAGE_COMPONENT, locationId, this.clock.now());
    const tiers = priceTiers(fromComponent ?? this.opts.gbMonthPrice);
    const provisioned = await this.repo.provisionedGb(this.db, customerId, locationId);
    return {
      location_id: locationId,
      currency: this.opts.currency,
      unit: 'GB' as const,
      source: fromComponent === undefined ? ('setting' as const) : ('component' as const),
      tiers,
      provisioned_gb: provisioned,
      current_hourly_cost: hourlyCost(provisioned, tiers),
    };
  }

  // ---- access keys ---------------------------------------------------------------------------

  async createKey(customerId: number, input: { name: string; location_id: number }): Promise<{ key: KeyView; secretKey: string }> {
    const accessKey = randomString(KEY_ALPHABET, 20);
    const secretKey = randomString(SECRET_ALPHABET, 40);
    const key = await this.db.transaction(async (tx) => {
      const customer = await this.repo.lockCustomer(tx, customerId);
      if (!customer) throw new NotFoundError('Customer');
      if (!(await this.repo.activeLocation(tx, input.location_id))) {
        throw new ValidationError('Validation failed', [{ field: 'location_id', message: 'no active location with this id' }]);
      }
      if ((await this.repo.countLiveKeys(tx, customerId)) >= MAX_KEYS_PER_CUSTOMER) {
        throw new QuotaExceededError(`Your account may have at most ${MAX_KEYS_PER_CUSTOMER} access keys`);
      }
      const now = this.clock.now();
      const row = await this.repo.insertKey(tx, {
        customerId,
        name: input.name.trim(),
        locationId: input.location_id,
        accessKey,
        secretSealed: encryptSecret(this.opts.encryptionKey, secretKey),
        isActive: true,
        status: 'Creating',
        createdAt: now,
        updatedAt: now,
      });
      await this.syncKeyLater(tx, row.id);
      return row;
    });
    return { key: { ...key, grants: [] }, secretKey };
  }

  async listKeys(customerId: number, p: PageRequest): Promise<Page<KeyView>> {
    const page = await this.repo.listKeys(this.db, customerId, p);
    const grants = await this.repo.grantsOfKeys(this.db, page.items.map((k) => k.id));
    return { items: page.items.map((k) => ({ ...k, grants: grants.filter((g) => g.keyId === k.id) })), total: page.total };
  }

  async setKeyActive(customerId: number, accessKey: string, isActive: boolean): Promise<KeyView> {
    const key = await this.db.transaction(async (tx) => {
      const row = await this.lockedKey(tx, customerId, accessKey);
      if (row.isActive === isActive) return row;
      const updated = await this.repo.updateKey(tx, row.id, { isActive, updatedAt: this.clock.now() });
      await this.syncKeyLater(tx, row.id);
      return updated;
    });
    return this.view(key);
  }

  async grant(customerId: number, accessKey: string, bucketUuid: string, acl: GrantAcl): Promise<KeyView> {
    const key = await this.db.transaction(async (tx) => {
      const row = await this.lockedKey(tx, customerId, accessKey);
      const bucket = await this.lockedBucket(tx, customerId, bucketUuid);
      if (bucket.locationId !== row.locationId) throw new BadRequestError('LOCATION_MISMATCH', 'The key and the bucket are at different locations');
      await this.repo.upsertGrant(tx, row.id, bucket.id, acl, this.clock.now());
      await this.syncBucketLater(tx, bucket.id);
      return row;
    });
    return this.view(key);
  }

  async revoke(customerId: number, accessKey: string, bucketUuid: string): Promise<KeyView> {
    const key = await this.db.transaction(async (tx) => {
      const row = await this.lockedKey(tx, customerId, accessKey);
      const bucket = await this.repo.findBucket(tx, customerId, bucketUuid, true);
      if (!bucket) throw new NotFoundError('Bucket');
      if (!(await this.repo.deleteGrant(tx, row.id, bucket.id))) throw new NotFoundError('Grant');
      await this.syncBucketLater(tx, bucket.id);
      return row;
    });
    return this.view(key);
  }

  async deleteKey(customerId: number, accessKey: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockedKey(tx, customerId, accessKey);
      await this.repo.updateKey(tx, row.id, { status: 'Deleting', isActive: false, updatedAt: this.clock.now() });
      for (const bucketId of await this.repo.deleteGrantsOfKey(tx, row.id)) await this.syncBucketLater(tx, bucketId);
      await this.syncKeyLater(tx, row.id);
    });
  }

  // ---- account suspension (charging's ResourceSuspender) ----------------------------------------

  /**
   * The account is suspended (prepaid balance below zero): every access key of the customer is
   * refused at the backend until `resumeCustomer`, whatever its own is_active says. Buckets and
   * their data stay (public reads too); nothing is deleted.
   */
  async suspendCustomer(customerId: number, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const ids = await this.repo.setCustomerKeysSuspended(tx, customerId, true, this.clock.now());
      for (const id of ids) await this.syncKeyLater(tx, id);
      if (ids.length > 0) this.log.info({ customerId, reason, keys: ids.length }, 'object storage keys suspended');
    });
  }

  async resumeCustomer(customerId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const ids = await this.repo.setCustomerKeysSuspended(tx, customerId, false, this.clock.now());
      for (const id of ids) await this.syncKeyLater(tx, id);
    });
  }

  // ---- backend jobs --------------------------------------------------------------------------

  /** Makes the backend bucket match its row (create, quota, policy) or deletes it. Idempotent. */
  readonly syncBucketJob = defineJob<{ bucketId?: number }>({
    name: 'object-storage.sync-bucket',
    queue: 'object-storage',
    // one waiting job per bucket or key: it reads the latest state when it runs
    policy: 'short',
    description: 'Makes a bucket at the object storage backend match the database (create, quota, policy, delete)',
    retryLimit: 10,
    record: 'failures',
    handler: async ({ bucketId }) => {
      if (bucketId !== undefined) await this.syncBucket(bucketId);
    },
  });

  /** Makes the backend user of an access key match its row (create, suspend, delete). Idempotent. */
  readonly syncKeyJob = defineJob<{ keyId?: number }>({
    name: 'object-storage.sync-key',
    queue: 'object-storage',
    // one waiting job per bucket or key: it reads the latest state when it runs
    policy: 'short',
    description: 'Makes an access key at the object storage backend match the database (create, suspend, delete)',
    retryLimit: 10,
    record: 'failures',
    handler: async ({ keyId }) => {
      if (keyId !== undefined) await this.syncKey(keyId);
    },
  });

  /** Every 10 minutes: buckets and keys still on their way (a job that ran out of retries) get another job. */
  readonly resyncJob = defineJob<object>({
    name: 'object-storage.resync',
    queue: 'object-storage',
    // one waiting job per bucket or key: it reads the latest state when it runs
    policy: 'short',
    schedule: '*/10 * * * *',
    description: 'Queues a backend sync for buckets and keys still Creating or Deleting',
    handler: async () => {
      const { buckets, keys } = await this.repo.pending(this.db);
      for (const id of buckets) await this.queue.send(this.syncBucketJob, { bucketId: id }, { singletonKey: `bucket:${id}` });
      for (const id of keys) await this.queue.send(this.syncKeyJob, { keyId: id }, { singletonKey: `key:${id}` });
    },
  });

  async syncBucket(bucketId: number): Promise<void> {
    let row = await this.repo.bucketById(this.db, bucketId);
    if (!row || row.status === 'Deleted') return;
    if (row.status === 'Deleting') {
      // A name the backend refused to create (another tenant owns it) is not ours to delete.
      const result = row.backendError === 'BucketAlreadyExists' ? 'missing' : await this.provider.deleteBucket(row.name);
      const settled = await this.db.transaction(async (tx) => {
        const current = await this.repo.bucketById(tx, bucketId, true);
        if (!current || current.status !== 'Deleting') return current;
        if (result === 'not_empty') {
          this.log.warn({ bucket: current.name }, 'bucket not empty at deletion: kept');
          return this.repo.updateBucket(tx, bucketId, { status: 'Active', backendError: 'not empty at deletion', updatedAt: this.clock.now() });
        }
        await this.repo.deleteGrantsOfBucket(tx, bucketId);
        const gone = await this.repo.updateBucket(tx, bucketId, { status: 'Deleted', deletedAt: this.clock.now(), updatedAt: this.clock.now() });
        for (const l of this.lifecycle) await l.bucketDeleted(tx, gone);
        return gone;
      });
      if (!settled || settled.status === 'Deleted') return;
      row = settled;
    }
    // Apply, then read again: a change made meanwhile (its own job may run elsewhere) is applied too.
    let applied = '';
    for (let round = 0; round < 5; round++) {
      const desired = await this.desiredBucket(row);
      if (desired.fingerprint === applied) break;
      try {
        await this.provider.ensureBucket(row.name, row.sizeGb * this.opts.quotaUnitBytes);
        await this.provider.setBucketAccess(row.name, desired.access);
      } catch (err) {
        if (!(err instanceof ObjectStoragePermanentError)) throw err;
        this.log.error({ err, bucket: row.name }, 'object storage refused the bucket');
        await this.repo.updateBucket(this.db, bucketId, { status: 'Error', backendError: err.code, updatedAt: this.clock.now() });
        return;
      }
      applied = desired.fingerprint;
      const current = await this.repo.bucketById(this.db, bucketId);
      if (!current) return;
      if (current.status === 'Deleting' || current.status === 'Deleted') {
        // deleted while this job created it: its own job deletes it; make sure nothing is left behind
        if (current.status === 'Deleted') await this.provider.deleteBucket(current.name);
        return;
      }
      row = current;
    }
    await this.db.transaction(async (tx) => {
      const current = await this.repo.bucketById(tx, bucketId, true);
      if (current && (current.status === 'Creating' || current.status === 'Error')) {
        const active = await this.repo.updateBucket(tx, bucketId, { status: 'Active', backendError: null, updatedAt: this.clock.now() });
        for (const l of this.lifecycle) await l.bucketActive(tx, active);
      }
    });
  }

  private async desiredBucket(row: BucketRow) {
    const grants = (await this.repo.policyGrants(this.db, row.id)).map((g) => ({ userId: keyUserId(g.accessKey), acl: g.acl }));
    const access = { publicRead: row.publicAcl === 'A', grants };
    return { access, fingerprint: JSON.stringify([row.sizeGb, access]) };
  }

  async syncKey(keyId: number): Promise<void> {
    let row = await this.repo.keyById(this.db, keyId);
    if (!row || row.status === 'Deleted') return;
    const userId = keyUserId(row.accessKey);
    if (row.status === 'Deleting') {
      await this.provider.deleteKeyUser(userId);
      await this.repo.updateKey(this.db, keyId, { status: 'Deleted', deletedAt: this.clock.now(), secretSealed: null, updatedAt: this.clock.now() });
      return;
    }
    let applied: boolean | undefined;
    for (let round = 0; round < 5 && refused(row) !== applied; round++) {
      const secretKey = row.secretSealed ? decryptSecret(this.opts.encryptionKey, row.secretSealed) : undefined;
      try {
        await this.provider.ensureKeyUser(userId, { accessKey: row.accessKey, ...(secretKey ? { secretKey } : {}), suspended: refused(row) });
      } catch (err) {
        if (!(err instanceof ObjectStoragePermanentError)) throw err;
        this.log.error({ err, accessKey: row.accessKey }, 'object storage refused the access key');
        await this.repo.updateKey(this.db, keyId, { status: 'Error', backendError: err.code, updatedAt: this.clock.now() });
        return;
      }
      applied = refused(row);
      const current = await this.repo.keyById(this.db, keyId);
      if (!current) return;
      if (current.status === 'Deleting' || current.status === 'Deleted') {
        // deleted while this job created it: never leave a working key behind
        await this.provider.deleteKeyUser(userId);
        return;
      }
      row = current;
    }
    await this.db.transaction(async (tx) => {
      const current = await this.repo.keyById(tx, keyId, true);
      if (!current || (current.status !== 'Creating' && current.status !== 'Error')) return;
      // The backend holds the secret now: erase the sealed copy, and put the key into the policies of its grants.
      await this.repo.updateKey(tx, keyId, { status: 'Active', secretSealed: null, backendError: null, updatedAt: this.clock.now() });
      for (const bucketId of await this.repo.bucketIdsOfKey(tx, keyId)) await this.syncBucketLater(tx, bucketId);
    });
  }

  // ---- helpers -------------------------------------------------------------------------------

  private async bucketOf(customerId: number, uuid: string): Promise<BucketRow> {
    const bucket = await this.repo.findBucket(this.db, customerId, uuid);
    if (!bucket) throw new NotFoundError('Bucket');
    return bucket;
  }

  private async lockedBucket(tx: Executor, customerId: number, uuid: string): Promise<BucketRow> {
    const bucket = await this.repo.findBucket(tx, customerId, uuid, true);
    if (!bucket) throw new NotFoundError('Bucket');
    if (bucket.status === 'Deleting') throw new ConflictError('The bucket is being deleted', 'BUCKET_DELETING');
    return bucket;
  }

  private async lockedKey(tx: Executor, customerId: number, accessKey: string): Promise<KeyRow> {
    const key = await this.repo.findKey(tx, customerId, accessKey, true);
    if (!key) throw new NotFoundError('Access key');
    return key;
  }

  private async view(key: KeyRow): Promise<KeyView> {
    return { ...key, grants: await this.repo.grantsOfKeys(this.db, [key.id]) };
  }

  private async usageOf(bucket: BucketRow): Promise<BucketUsage | null> {
    try {
      return await this.provider.bucketUsage(bucket.name);
    } catch (err) {
      this.log.error({ err, bucket: bucket.name }, 'object storage usage read failed');
      throw new StorageUnavailableError();
    }
  }

  private async syncBucketLater(tx: Executor, bucketId: number): Promise<void> {
    await this.queue.send(this.syncBucketJob, { bucketId }, { tx, singletonKey: `bucket:${bucketId}` });
  }

  private async syncKeyLater(tx: Executor, keyId: number): Promise<void> {
    await this.queue.send(this.syncKeyJob, { keyId }, { tx, singletonKey: `key:${keyId}` });
  }
}

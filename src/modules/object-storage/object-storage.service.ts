import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { decryptSecret, encryptSecret } from '../../platform/crypto/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, QuotaExceededError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { SYNCED, type Applied, type Failure, type FailureKind, type Lifecycle, type ResourceAdapter, type SyncState } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import { ObjectStoragePermanentError, type BucketUsage, type ObjectStorageProvider } from '../../integrations/object-storage/index.js';
import { componentKey, type PricingService } from '../pricing/index.js';
import type { BucketRow, GrantAcl, KeyGrantRow, KeyRow, ObjectStorageRepository } from './object-storage.repository.js';
import { hourlyCost, priceTiers, type PriceTier } from './object-storage.pricing.js';
import { ACCESS_KEY_KIND, BUCKET_KIND } from './object-storage.tables.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import type { BillableStartRule } from '../charging/index.js';
import { customerQuotaLock } from '../customers/index.js';
import { activeLocations } from '../lookups/index.js';


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
  sync: SyncState;
}

export type BucketView = BucketRow & { sync: SyncState };

/** A location's price of object storage, and what the customer's provisioned GB there cost an hour. */
export interface StoragePrice {
  locationId: number;
  currency: string;
  unit: 'GB';
  /** the pricing component of the location, or the configured default */
  source: 'setting' | 'component';
  tiers: PriceTier[];
  provisionedGb: number;
  /** decimal text, 6 decimals */
  currentHourlyCost: string;
}

/**
 * A call the backend did not answer as asked (an outage, a timeout): tried again by itself. Its
 * message is what the customer reads in `sync.last_error`; the backend's own words (addresses,
 * SDK errors) stay in the log.
 */
class StorageBackendError extends Error {
  constructor() {
    super('the object storage did not answer; the change is tried again by itself');
    this.name = 'StorageBackendError';
  }
}

const codeOf = (f: Failure) => (f.error instanceof ObjectStoragePermanentError ? f.error.code : f.message);

/** A refusal (a name another tenant of the cluster owns) is final; an outage is tried again with back-off. */
function classify(err: unknown): FailureKind | undefined {
  if (err instanceof ObjectStoragePermanentError) return 'final';
  return err instanceof StorageBackendError ? 'retry' : undefined;
}

class StorageUnavailableError extends AppError {
  constructor() {
    super(503, 'STORAGE_UNAVAILABLE', 'Object storage is not reachable right now, please try again', undefined, { 'retry-after': '30' });
  }
}

/**
 * Buckets and access keys. The rows are the desired state; every change tells the resource
 * lifecycle in its transaction, and the two adapters (`buckets`, `keys`) make the backend match.
 * A bucket pays for its size from Active until Deleted (its meter follows a resize).
 */
export class ObjectStorageService {
  constructor(
    private readonly db: Database,
    private readonly repo: ObjectStorageRepository,
    private readonly provider: ObjectStorageProvider,
    private readonly lifecycle: Lifecycle,
    private readonly metering: Metering,
    private readonly pricing: PricingService,
    private readonly billable: BillableStartRule,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: ObjectStorageOptions,
    private readonly webhooks: WebhookEmitter,
  ) {}

  private async bucketView(b: BucketRow, ex: Executor = this.db): Promise<BucketView> {
    return { ...b, sync: await this.lifecycle.state(BUCKET_KIND, b.id, ex) };
  }

  get endpoint(): string | null {
    return this.opts.publicEndpoint ?? null;
  }

  // ---- buckets -------------------------------------------------------------------------------

  async createBucket(customerId: number, input: CreateBucketInput): Promise<BucketView> {
    const name = input.name;
    if (!BUCKET_NAME_PATTERN.test(name)) {
      throw new ValidationError('Validation failed', [{ field: 'name', message: '3 to 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit' }]);
    }
    const size = input.size ?? DEFAULT_BUCKET_SIZE_GB;
    return this.db.transaction(async (tx) => {
      const customer = await customerQuotaLock.lock(tx, customerId);
      if (!customer) throw new NotFoundError('Customer');
      if (!(await activeLocations.isActive(tx, input.location_id))) {
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
      noteActivityTarget(row.uuid);
      return this.bucketView(row, tx);
    });
  }

  async listBuckets(customerId: number, p: PageRequest): Promise<Page<BucketView>> {
    const page = await this.repo.listBuckets(this.db, customerId, p);
    const states = await this.lifecycle.states(BUCKET_KIND, page.items.map((b) => b.id));
    return { total: page.total, items: page.items.map((b) => ({ ...b, sync: states.get(b.id) ?? SYNCED })) };
  }

  async getBucket(customerId: number, uuid: string): Promise<{ bucket: BucketView; usage: BucketUsage | null }> {
    const bucket = await this.bucketOf(customerId, uuid);
    return { bucket: await this.bucketView(bucket), usage: bucket.status === 'Creating' ? null : await this.usageOf(bucket) };
  }

  async setPublicAcl(customerId: number, uuid: string, publicAcl: 'A' | 'P'): Promise<BucketView> {
    return this.db.transaction(async (tx) => {
      const bucket = await this.lockedBucket(tx, customerId, uuid);
      if (bucket.publicAcl === publicAcl) return this.bucketView(bucket, tx);
      const row = await this.repo.updateBucket(tx, bucket.id, { publicAcl, updatedAt: this.clock.now() });
      await this.syncBucketLater(tx, row.id);
      return this.bucketView(row, tx);
    });
  }

  async resize(customerId: number, uuid: string, sizeGb: number): Promise<BucketView> {
    const before = await this.bucketOf(customerId, uuid);
    // Read at the backend before the transaction: a quota below what is stored is refused.
    const usage = before.status === 'Creating' ? null : await this.usageOf(before);
    if (usage && usage.bytes > sizeGb * this.opts.quotaUnitBytes) {
      throw new ConflictError(`The bucket holds more than ${sizeGb} GB; delete objects first`, 'BUCKET_TOO_SMALL');
    }
    return this.db.transaction(async (tx) => {
      const bucket = await this.lockedBucket(tx, customerId, uuid);
      if (bucket.sizeGb === sizeGb) return this.bucketView(bucket, tx);
      if (sizeGb > bucket.sizeGb) {
        await this.billable.assertMayStart(tx, customerId);
      }
      const row = await this.repo.updateBucket(tx, bucket.id, { sizeGb, updatedAt: this.clock.now() });
      // only a bucket that is paying (Active, or Error after it was Active) gets a meter with its new size
      if ((await this.metering.close('bucket', row.id, this.clock.now(), { tx })) > 0) await this.openMeter(tx, row);
      await this.syncBucketLater(tx, row.id);
      return this.bucketView(row, tx);
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

  async price(customerId: number, locationId: number): Promise<StoragePrice> {
    if (!(await activeLocations.isActive(this.db, locationId))) throw new NotFoundError('Location');
    const fromComponent = await this.repo.componentMonthlyPrice(this.db, OBJECT_STORAGE_COMPONENT, locationId, this.clock.now());
    const tiers = priceTiers(fromComponent ?? this.opts.gbMonthPrice);
    const provisioned = await this.repo.provisionedGb(this.db, customerId, locationId);
    return {
      locationId,
      currency: this.opts.currency,
      unit: 'GB',
      source: fromComponent === undefined ? 'setting' : 'component',
      tiers,
      provisionedGb: provisioned,
      currentHourlyCost: hourlyCost(provisioned, tiers),
    };
  }

  // ---- access keys ---------------------------------------------------------------------------

  async createKey(customerId: number, input: { name: string; location_id: number }): Promise<{ key: KeyView; secretKey: string }> {
    const accessKey = randomString(KEY_ALPHABET, 20);
    const secretKey = randomString(SECRET_ALPHABET, 40);
    const key = await this.db.transaction(async (tx) => {
      const customer = await customerQuotaLock.lock(tx, customerId);
      if (!customer) throw new NotFoundError('Customer');
      if (!(await activeLocations.isActive(tx, input.location_id))) {
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
      noteActivityTarget(row.accessKey);
      return row;
    });
    return { key: await this.view(key), secretKey };
  }

  async listKeys(customerId: number, p: PageRequest): Promise<Page<KeyView>> {
    const page = await this.repo.listKeys(this.db, customerId, p);
    const grants = await this.repo.grantsOfKeys(this.db, page.items.map((k) => k.id));
    const states = await this.lifecycle.states(ACCESS_KEY_KIND, page.items.map((k) => k.id));
    return { items: page.items.map((k) => ({ ...k, grants: grants.filter((g) => g.keyId === k.id), sync: states.get(k.id) ?? SYNCED })), total: page.total };
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

  // ---- the lifecycle adapters -----------------------------------------------------------------

  /** Makes the backend bucket match its row (create, quota, policy), or deletes it. Idempotent. */
  readonly buckets: ResourceAdapter = {
    kind: BUCKET_KIND,
    classify,
    apply: (id) => this.applyBucket(id),
    failed: (tx, id, failure) => this.bucketFailed(tx, id, failure),
  };

  /** Makes the backend user of an access key match its row (create, suspend), or deletes it. Idempotent. */
  readonly keys: ResourceAdapter = {
    kind: ACCESS_KEY_KIND,
    classify,
    apply: (id) => this.applyKey(id),
    failed: async (tx, id, failure) => {
      const key = await this.repo.keyById(tx, id, true);
      if (!failure.final || !key || key.status === 'Deleting' || key.status === 'Deleted') return;
      this.log.error({ accessKey: key.accessKey, err: failure.message }, 'object storage refused the access key');
      await this.repo.updateKey(tx, id, { status: 'Error', backendError: codeOf(failure), updatedAt: this.clock.now() });
    },
  };

  private async applyBucket(bucketId: number): Promise<Applied | void> {
    const row = await this.repo.bucketById(this.db, bucketId);
    if (!row || row.status === 'Deleted') return;
    if (row.status === 'Deleting') {
      // A name the backend refused to create (another tenant owns it) is not ours to delete.
      const result = row.backendError === 'BucketAlreadyExists' ? 'missing' : await this.backend(() => this.provider.deleteBucket(row.name));
      return {
        record: async (tx) => {
          const now = this.clock.now();
          if (result === 'not_empty') {
            this.log.warn({ bucket: row.name }, 'bucket not empty at deletion: kept');
            await this.repo.updateBucket(tx, bucketId, { status: 'Active', backendError: 'not empty at deletion', updatedAt: now });
            return;
          }
          await this.repo.deleteGrantsOfBucket(tx, bucketId);
          await this.repo.updateBucket(tx, bucketId, { status: 'Deleted', deletedAt: now, updatedAt: now });
          await this.webhooks.emit(tx, { customerId: row.customerId, type: 'bucket.deleted', data: { bucket_uuid: row.uuid, name: row.name } });
          await this.metering.close('bucket', bucketId, now, { tx });
        },
      };
    }
    const grants = (await this.repo.policyGrants(this.db, row.id)).map((g) => ({ userId: keyUserId(g.accessKey), acl: g.acl }));
    await this.backend(() => this.provider.ensureBucket(row.name, row.sizeGb * this.opts.quotaUnitBytes));
    await this.backend(() => this.provider.setBucketAccess(row.name, { publicRead: row.publicAcl === 'A', grants }));
    return {
      record: async (tx) => {
        if (row.status !== 'Creating' && row.status !== 'Error') return;
        const active = await this.repo.updateBucket(tx, bucketId, { status: 'Active', backendError: null, updatedAt: this.clock.now() });
        await this.webhooks.emit(tx, { customerId: row.customerId, type: 'bucket.created', data: { bucket_uuid: row.uuid, name: row.name } });
        await this.openMeter(tx, active);
      },
    };
  }

  private async bucketFailed(tx: Executor, bucketId: number, failure: Failure): Promise<void> {
    const row = await this.repo.bucketById(tx, bucketId, true);
    if (!failure.final || !row || row.status === 'Deleting' || row.status === 'Deleted') return;
    this.log.error({ bucket: row.name, err: failure.message }, 'object storage refused the bucket');
    await this.repo.updateBucket(tx, bucketId, { status: 'Error', backendError: codeOf(failure), updatedAt: this.clock.now() });
  }

  private async applyKey(keyId: number): Promise<Applied | void> {
    const row = await this.repo.keyById(this.db, keyId);
    if (!row || row.status === 'Deleted') return;
    const userId = keyUserId(row.accessKey);
    if (row.status === 'Deleting') {
      await this.backend(() => this.provider.deleteKeyUser(userId));
      return { record: async (tx) => void (await this.repo.updateKey(tx, keyId, { status: 'Deleted', deletedAt: this.clock.now(), secretSealed: null, updatedAt: this.clock.now() })) };
    }
    const secretKey = row.secretSealed ? decryptSecret(this.opts.encryptionKey, row.secretSealed) : undefined;
    await this.backend(() => this.provider.ensureKeyUser(userId, { accessKey: row.accessKey, ...(secretKey ? { secretKey } : {}), suspended: refused(row) }));
    return {
      record: async (tx) => {
        if (row.status !== 'Creating' && row.status !== 'Error') return;
        // The backend holds the secret now: erase the sealed copy, and put the key into the policies of its grants.
        await this.repo.updateKey(tx, keyId, { status: 'Active', secretSealed: null, backendError: null, updatedAt: this.clock.now() });
        for (const bucketId of await this.repo.bucketIdsOfKey(tx, keyId)) await this.syncBucketLater(tx, bucketId);
      },
    };
  }

  /** Provider calls in the adapters go through this, so their failures are told from our own. */
  private async backend<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ObjectStoragePermanentError) throw err;
      this.log.warn({ err }, 'object storage call failed');
      throw new StorageBackendError();
    }
  }

  /** A bucket pays for its size (GB) at the object_storage_gb component's price. */
  private async openMeter(tx: Executor, b: BucketRow): Promise<void> {
    const component = await this.pricing.componentByCode(OBJECT_STORAGE_COMPONENT, tx);
    await this.metering.open({ customerId: b.customerId, resourceType: 'bucket', resourceId: b.id, description: `Bucket ${b.name} (${b.sizeGb} GB)`, priceKey: componentKey(component.id), locationId: b.locationId, quantity: b.sizeGb, at: this.clock.now() }, tx);
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
    return { ...key, grants: await this.repo.grantsOfKeys(this.db, [key.id]), sync: await this.lifecycle.state(ACCESS_KEY_KIND, key.id) };
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
    await this.lifecycle.changed(tx, BUCKET_KIND, bucketId);
  }

  private async syncKeyLater(tx: Executor, keyId: number): Promise<void> {
    await this.lifecycle.changed(tx, ACCESS_KEY_KIND, keyId);
  }
}

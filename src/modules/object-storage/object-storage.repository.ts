import { and, asc, count, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type PageRequest } from '../../platform/http/pagination.js';
import { priceVersions } from '../pricing/price-versions.tables.js';
import { components } from '../pricing/pricing.tables.js';
import { objectStorageBuckets, objectStorageGrants, objectStorageKeys } from './object-storage.tables.js';

export type BucketRow = typeof objectStorageBuckets.$inferSelect;
export type KeyRow = typeof objectStorageKeys.$inferSelect;
export type GrantAcl = 'Read_Only' | 'Read_Write';

export interface KeyGrantRow {
  keyId: number;
  bucketUuid: string;
  bucketName: string;
  acl: GrantAcl;
}

export class ObjectStorageRepository {
  async countLiveBuckets(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex
      .select({ n: count() })
      .from(objectStorageBuckets)
      .where(and(eq(objectStorageBuckets.customerId, customerId), isNull(objectStorageBuckets.deletedAt)));
    return row?.n ?? 0;
  }

  async nameTaken(ex: Executor, name: string): Promise<boolean> {
    const [row] = await ex.select({ id: objectStorageBuckets.id }).from(objectStorageBuckets).where(and(eq(objectStorageBuckets.name, name), isNull(objectStorageBuckets.deletedAt)));
    return row !== undefined;
  }

  async insertBucket(tx: Executor, row: typeof objectStorageBuckets.$inferInsert): Promise<BucketRow> {
    const [created] = await tx.insert(objectStorageBuckets).values(row).returning();
    return created!;
  }

  async findBucket(ex: Executor, customerId: number, uuid: string, lock = false): Promise<BucketRow | undefined> {
    const q = ex
      .select()
      .from(objectStorageBuckets)
      .where(and(eq(objectStorageBuckets.customerId, customerId), eq(objectStorageBuckets.uuid, uuid), isNull(objectStorageBuckets.deletedAt)));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  }

  async bucketById(ex: Executor, id: number, lock = false): Promise<BucketRow | undefined> {
    const q = ex.select().from(objectStorageBuckets).where(eq(objectStorageBuckets.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  }

  async listBuckets(ex: Executor, customerId: number, p: PageRequest): Promise<{ items: BucketRow[]; total: number }> {
    const where = and(eq(objectStorageBuckets.customerId, customerId), isNull(objectStorageBuckets.deletedAt));
    const items = await ex.select().from(objectStorageBuckets).where(where).orderBy(desc(objectStorageBuckets.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(objectStorageBuckets).where(where);
    return { items, total: total?.n ?? 0 };
  }

  /** Provisioned GB of the customer's live buckets at a location (the price tier's base). */
  async provisionedGb(ex: Executor, customerId: number, locationId: number): Promise<number> {
    const [row] = await queryRows<{ gb: number }>(
      ex,
      sql`select coalesce(sum(size_gb), 0)::int as gb from object_storage_buckets where customer_id = ${customerId} and location_id = ${locationId} and deleted_at is null`,
    );
    return row?.gb ?? 0;
  }

  async updateBucket(tx: Executor, id: number, set: Partial<typeof objectStorageBuckets.$inferInsert>): Promise<BucketRow> {
    const [row] = await tx.update(objectStorageBuckets).set(set).where(eq(objectStorageBuckets.id, id)).returning();
    return row!;
  }

  /** Grants the backend policy of a bucket carries: keys whose backend user exists. */
  async policyGrants(ex: Executor, bucketId: number): Promise<{ accessKey: string; acl: GrantAcl }[]> {
    return (await ex
      .select({ accessKey: objectStorageKeys.accessKey, acl: objectStorageGrants.acl })
      .from(objectStorageGrants)
      .innerJoin(objectStorageKeys, eq(objectStorageKeys.id, objectStorageGrants.keyId))
      .where(and(eq(objectStorageGrants.bucketId, bucketId), eq(objectStorageKeys.status, 'Active'), isNull(objectStorageKeys.deletedAt)))
      .orderBy(asc(objectStorageKeys.id))) as { accessKey: string; acl: GrantAcl }[];
  }

  async bucketIdsOfKey(ex: Executor, keyId: number): Promise<number[]> {
    const rows = await ex.select({ bucketId: objectStorageGrants.bucketId }).from(objectStorageGrants).where(eq(objectStorageGrants.keyId, keyId));
    return rows.map((r) => r.bucketId);
  }

  async deleteGrantsOfKey(tx: Executor, keyId: number): Promise<number[]> {
    const rows = await tx.delete(objectStorageGrants).where(eq(objectStorageGrants.keyId, keyId)).returning({ bucketId: objectStorageGrants.bucketId });
    return rows.map((r) => r.bucketId);
  }

  async deleteGrantsOfBucket(tx: Executor, bucketId: number): Promise<void> {
    await tx.delete(objectStorageGrants).where(eq(objectStorageGrants.bucketId, bucketId));
  }

  async upsertGrant(tx: Executor, keyId: number, bucketId: number, acl: GrantAcl, at: Date): Promise<void> {
    await tx
      .insert(objectStorageGrants)
      .values({ keyId, bucketId, acl, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: [objectStorageGrants.keyId, objectStorageGrants.bucketId], set: { acl, updatedAt: at } });
  }

  async deleteGrant(tx: Executor, keyId: number, bucketId: number): Promise<boolean> {
    const rows = await tx
      .delete(objectStorageGrants)
      .where(and(eq(objectStorageGrants.keyId, keyId), eq(objectStorageGrants.bucketId, bucketId)))
      .returning({ keyId: objectStorageGrants.keyId });
    return rows.length > 0;
  }

  async countLiveKeys(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(objectStorageKeys).where(and(eq(objectStorageKeys.customerId, customerId), isNull(objectStorageKeys.deletedAt)));
    return row?.n ?? 0;
  }

  async insertKey(tx: Executor, row: typeof objectStorageKeys.$inferInsert): Promise<KeyRow> {
    const [created] = await tx.insert(objectStorageKeys).values(row).returning();
    return created!;
  }

  async findKey(ex: Executor, customerId: number, accessKey: string, lock = false): Promise<KeyRow | undefined> {
    const q = ex
      .select()
      .from(objectStorageKeys)
      .where(and(eq(objectStorageKeys.customerId, customerId), eq(objectStorageKeys.accessKey, accessKey), isNull(objectStorageKeys.deletedAt), ne(objectStorageKeys.status, 'Deleting')));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  }

  async keyById(ex: Executor, id: number, lock = false): Promise<KeyRow | undefined> {
    const q = ex.select().from(objectStorageKeys).where(eq(objectStorageKeys.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  }

  async listKeys(ex: Executor, customerId: number, p: PageRequest): Promise<{ items: KeyRow[]; total: number }> {
    const where = and(eq(objectStorageKeys.customerId, customerId), isNull(objectStorageKeys.deletedAt), ne(objectStorageKeys.status, 'Deleting'));
    const items = await ex.select().from(objectStorageKeys).where(where).orderBy(desc(objectStorageKeys.id)).limit(p.limit).offset(offsetOf(p));
    const [total] = await ex.select({ n: count() }).from(objectStorageKeys).where(where);
    return { items, total: total?.n ?? 0 };
  }

  async grantsOfKeys(ex: Executor, keyIds: number[]): Promise<KeyGrantRow[]> {
    if (keyIds.length === 0) return [];
    return (await ex
      .select({ keyId: objectStorageGrants.keyId, bucketUuid: objectStorageBuckets.uuid, bucketName: objectStorageBuckets.name, acl: objectStorageGrants.acl })
      .from(objectStorageGrants)
      .innerJoin(objectStorageBuckets, eq(objectStorageBuckets.id, objectStorageGrants.bucketId))
      .where(and(inArray(objectStorageGrants.keyId, keyIds), isNull(objectStorageBuckets.deletedAt)))
      .orderBy(asc(objectStorageBuckets.name))) as KeyGrantRow[];
  }

  async updateKey(tx: Executor, id: number, set: Partial<typeof objectStorageKeys.$inferInsert>): Promise<KeyRow> {
    const [row] = await tx.update(objectStorageKeys).set(set).where(eq(objectStorageKeys.id, id)).returning();
    return row!;
  }

  /**
   * The monthly price of the component `code` (pricing's `object_storage_gb`) at a location in
   * force at `at`: the price_versions row of `component:<id>` with the latest effective_from <= at.
   */
  async componentMonthlyPrice(ex: Executor, code: string, locationId: number, at: Date): Promise<string | undefined> {
    const [row] = await ex
      .select({ monthly: priceVersions.monthlyPrice })
      .from(priceVersions)
      .innerJoin(components, sql`${priceVersions.priceKey} = 'component:' || ${components.id}::text`)
      .where(and(eq(components.code, code), eq(priceVersions.locationId, locationId), lte(priceVersions.effectiveFrom, at)))
      .orderBy(desc(priceVersions.effectiveFrom), desc(priceVersions.id))
      .limit(1);
    return row?.monthly;
  }

  /** Marks every live key of the customer (un)suspended; answers the ids that changed. */
  async setCustomerKeysSuspended(tx: Executor, customerId: number, suspended: boolean, at: Date): Promise<number[]> {
    const rows = await tx
      .update(objectStorageKeys)
      .set({ suspended, updatedAt: at })
      .where(and(eq(objectStorageKeys.customerId, customerId), isNull(objectStorageKeys.deletedAt), ne(objectStorageKeys.suspended, suspended)))
      .returning({ id: objectStorageKeys.id });
    return rows.map((r) => r.id);
  }
}

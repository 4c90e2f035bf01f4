import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';

/** Buckets and access keys in the resource lifecycle (platform/lifecycle). */
export const BUCKET_KIND = 'bucket';
export const ACCESS_KEY_KIND = 'access_key';

/**
 * A customer's bucket: the desired state; its lifecycle job makes the backend match it
 * (Creating → Active, quota, policy) and deletes it there (Deleting → Deleted). The name stays
 * taken until the backend has deleted the bucket. `backend_error` is the backend's refusal code.
 */
export const objectStorageBuckets = pgTable(
  'object_storage_buckets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    publicAcl: text('public_acl').notNull().default('P'),
    sizeGb: integer('size_gb').notNull(),
    status: text('status').notNull().default('Creating'),
    backendError: text('backend_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('object_storage_buckets_uuid_unique').on(t.uuid),
    uniqueIndex('object_storage_buckets_name_unique').on(t.name).where(sql`${t.deletedAt} is null`),
    index('object_storage_buckets_customer_idx').on(t.customerId),
    check('object_storage_buckets_public_acl', sql`${t.publicAcl} in ('A','P')`),
    check('object_storage_buckets_size', sql`${t.sizeGb} between 1 and 102400`),
    check('object_storage_buckets_status', sql`${t.status} in ('Creating','Active','Deleting','Deleted','Error')`),
  ],
);

/**
 * An access key: one backend user per key. The secret is never stored in clear: until the
 * backend user exists it is kept sealed (AES-256-GCM, ENCRYPTION_KEY) for the job that creates
 * it, then erased.
 */
export const objectStorageKeys = pgTable(
  'object_storage_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    accessKey: text('access_key').notNull(),
    secretSealed: text('secret_sealed'),
    isActive: boolean('is_active').notNull().default(true),
    /** the account is suspended (charging: balance below zero): refused at the backend whatever is_active says */
    suspended: boolean('suspended').notNull().default(false),
    status: text('status').notNull().default('Creating'),
    backendError: text('backend_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('object_storage_keys_access_key_unique').on(t.accessKey),
    index('object_storage_keys_customer_idx').on(t.customerId),
    check('object_storage_keys_status', sql`${t.status} in ('Creating','Active','Deleting','Deleted','Error')`),
  ],
);

/** A key's access to one bucket. */
export const objectStorageGrants = pgTable(
  'object_storage_grants',
  {
    keyId: integer('key_id')
      .notNull()
      .references(() => objectStorageKeys.id, { onDelete: 'cascade' }),
    bucketId: integer('bucket_id')
      .notNull()
      .references(() => objectStorageBuckets.id, { onDelete: 'cascade' }),
    acl: text('acl').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.bucketId] }),
    index('object_storage_grants_bucket_idx').on(t.bucketId),
    check('object_storage_grants_acl', sql`${t.acl} in ('Read_Only','Read_Write')`),
  ],
);

export const objectStorageConstraintMeanings = {
  object_storage_buckets_name_unique: { code: 'BUCKET_NAME_TAKEN', message: 'A bucket with this name exists' },
} as const;

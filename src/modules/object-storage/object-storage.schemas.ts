import { Type } from 'typebox';
import { IntId, Money, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { Sync } from '../../platform/lifecycle/index.js';

const PublicAcl = Type.Union([Type.Literal('A'), Type.Literal('P')], { description: 'A = public (anonymous clients may read objects), P = private' });
const Acl = Type.Union([Type.Literal('Read_Only'), Type.Literal('Read_Write')]);
const SizeGb = Type.Integer({ minimum: 1, maximum: 102400, description: 'bucket quota in GB (the bucket refuses writes beyond it; billed per GB-hour)' });
const Endpoint = Type.Union([Type.String(), Type.Null()], { description: 'S3 endpoint for clients (path-style); null for the embedded local provider' });

export const Bucket = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  location_id: Type.Integer(),
  public_acl: PublicAcl,
  size: Type.Integer({ description: 'GB' }),
  status: Type.String({ enum: ['Creating', 'Active', 'Deleting', 'Error'], description: 'Creating until the storage backend has the bucket' }),
  endpoint: Endpoint,
  sync: Sync,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const BucketDetail = Type.Object({
  ...Bucket.properties,
  usage: Type.Union([Type.Object({ objects: Type.Integer(), bytes: Type.Integer() }), Type.Null()], { description: 'what the bucket stores now; null while Creating' }),
});

export const CreateBucketBody = StrictObject({
  name: Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9-]*[a-z0-9]$', description: 'unique system-wide; lowercase letters, digits and hyphens' }),
  location_id: IntId,
  public_acl: Type.Optional(PublicAcl),
  size: Type.Optional(SizeGb),
});

export const AclBody = StrictObject({ public_acl: PublicAcl });
export const ResizeBody = StrictObject({ size: SizeGb });
export const BucketParams = Type.Object({ uuid: Type.String({ format: 'uuid' }) });
export const ListQuery = PageQuery;
export const PriceQuery = Type.Object({ location_id: Type.Optional(IntId) });

export const Price = Type.Object({
  location_id: Type.Integer(),
  currency: Type.String(),
  unit: Type.Literal('GB'),
  source: Type.String({ enum: ['component', 'setting'], description: 'component: the price_versions of the configured component; setting: OBJECT_STORAGE_GB_MONTH_PRICE' }),
  tiers: Type.Array(
    Type.Object({
      from_gb: Type.Integer(),
      to_gb: Type.Union([Type.Integer(), Type.Null()]),
      price_per_gb_month: Money,
      price_per_gb_hour: Type.Number({ description: 'monthly / 730, 6 decimals' }),
    }),
    { description: 'marginal tiers over the customer\'s provisioned GB at the location' },
  ),
  provisioned_gb: Type.Integer({ description: 'GB of the customer\'s buckets at the location' }),
  current_hourly_cost: Type.Number({ description: 'what those GB cost per hour under the tiers' }),
});

const KeyGrant = Type.Object({ bucket_uuid: Type.String({ format: 'uuid' }), bucket_name: Type.String(), acl: Acl });

export const AccessKey = Type.Object({
  name: Type.String(),
  location_id: Type.Integer(),
  AccessKey: Type.String(),
  is_active: Type.Boolean(),
  suspended: Type.Boolean({ description: 'the account is suspended (balance below zero): the key is refused until it resumes' }),
  status: Type.String({ enum: ['Creating', 'Active', 'Error'] }),
  buckets: Type.Array(KeyGrant),
  endpoint: Endpoint,
  sync: Sync,
  created_at: Timestamp,
});

export const CreatedAccessKey = Type.Object({
  ...AccessKey.properties,
  SecretKey: Type.String({ description: 'shown only in this answer; the platform keeps no copy it can show again' }),
});

export const CreateKeyBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  location_id: IntId,
});
export const KeyParams = Type.Object({ accessKey: Type.String({ pattern: '^[A-Z0-9]{20}$' }) });
export const KeyBucketParams = Type.Object({ accessKey: Type.String({ pattern: '^[A-Z0-9]{20}$' }), bucketUuid: Type.String({ format: 'uuid' }) });
export const KeyActiveBody = StrictObject({ is_active: Type.Boolean() });
export const GrantBody = StrictObject({ bucket_uuid: Type.String({ format: 'uuid' }), acl: Acl });

import { syncView } from '../../platform/lifecycle/index.js';
import { moneyJson } from '../../platform/money.js';
import type { BucketView, KeyView, StoragePrice } from './object-storage.service.js';

/* The object storage module's answers, mapped in one place. `endpoint` is the deployment's S3 endpoint (null: no data plane). */

export function bucketView(b: BucketView, endpoint: string | null) {
  return {
    uuid: b.uuid,
    name: b.name,
    location_id: b.locationId,
    public_acl: b.publicAcl as 'A' | 'P',
    size: b.sizeGb,
    status: b.status,
    endpoint,
    data_plane: endpoint !== null,
    sync: syncView(b.sync),
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

export function accessKeyView(k: KeyView, endpoint: string | null) {
  return {
    name: k.name,
    location_id: k.locationId,
    AccessKey: k.accessKey,
    is_active: k.isActive,
    suspended: k.suspended,
    status: k.status,
    buckets: k.grants.map((g) => ({ bucket_uuid: g.bucketUuid, bucket_name: g.bucketName, acl: g.acl })),
    endpoint,
    data_plane: endpoint !== null,
    sync: syncView(k.sync),
    created_at: k.createdAt.toISOString(),
  };
}

export function storagePriceView(p: StoragePrice) {
  return {
    location_id: p.locationId,
    currency: p.currency,
    unit: p.unit,
    source: p.source,
    tiers: p.tiers.map((t) => ({ ...t, price_per_gb_month: moneyJson(t.price_per_gb_month), price_per_gb_hour: Number(t.price_per_gb_hour) })),
    provisioned_gb: p.provisionedGb,
    current_hourly_cost: Number(p.currentHourlyCost),
  };
}

import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { storageTiers } from '../block-storage/block-storage.tables.js';
import { vms } from '../compute/compute.tables.js';
import { loadBalancers } from '../load-balancers/load-balancers.tables.js';
import { locations } from '../lookups/lookups.tables.js';
import { privateNetworks } from '../networks/networks.tables.js';
import { objectStorageBuckets } from '../object-storage/object-storage.tables.js';
import { tiers } from '../tiers/tiers.tables.js';

export const RESOURCE_KINDS = ['vm', 'network', 'volume', 'bucket', 'load_balancer'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export interface CustomerResourceRow {
  kind: ResourceKind;
  id: string;
  name: string;
  status: string;
  location_id: number;
  location_name: string;
  detail: string;
  created_at: Date | string;
}

/**
 * Everything a customer runs, one row per resource whatever its kind, newest first: what support
 * reads on the customer's page. Deleted resources are left out. One UNION over the tables of the
 * resource modules (read only).
 */
export class CustomerResourcesRepository {
  async list(ex: Executor, customerId: number, kind: ResourceKind | undefined, p: PageRequest): Promise<Page<CustomerResourceRow>> {
    const all = sql`
      select 'vm' as kind, v.id::text as id, v.name, v.status, v.location_id,
             concat_ws(', ', t.name, coalesce(v.public_ip, 'no public IP')) as detail, v.created_at
        from ${vms} v join ${tiers} t on t.id = v.tier_id
       where v.customer_id = ${customerId} and v.status <> 'Deleted'
      union all
      select 'volume', v.id::text, v.name || ' volume', v.status, v.location_id,
             concat(v.block_storage_gb, ' GB ', s.name, ', on VM ', v.name), v.created_at
        from ${vms} v join ${storageTiers} s on s.id = v.block_storage_tier_id
       where v.customer_id = ${customerId} and v.status <> 'Deleted' and v.block_storage_gb is not null
      union all
      select 'network', n.uuid::text, n.name, n.status, n.location_id, concat(n.network_ip, '/', n.cidr), n.created_at
        from ${privateNetworks} n
       where n.customer_id = ${customerId} and n.status <> 'Deleted'
      union all
      select 'bucket', b.uuid::text, b.name, b.status, b.location_id,
             concat(b.size_gb, ' GB, ', case when b.public_acl = 'A' then 'public' else 'private' end), b.created_at
        from ${objectStorageBuckets} b
       where b.customer_id = ${customerId} and b.deleted_at is null and b.status <> 'Deleted'
      union all
      select 'load_balancer', l.uuid::text, l.name, l.status, l.location_id,
             concat_ws(', ', replace(l.algorithm, '_', ' '), l.address), l.created_at
        from ${loadBalancers} l
       where l.customer_id = ${customerId} and l.status <> 'Deleted'`;
    const filtered = sql`select r.*, loc.name as location_name from (${all}) r join ${locations} loc on loc.id = r.location_id
      ${kind ? sql`where r.kind = ${kind}` : sql``}`;
    const items = await queryRows<CustomerResourceRow>(ex, sql`${filtered} order by r.created_at desc, r.kind, r.id limit ${p.limit} offset ${offsetOf(p)}`);
    const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from (${filtered}) x`);
    return { items, total: total?.n ?? 0 };
  }
}

import { syncView } from '../../platform/lifecycle/index.js';
import type { LbDetail } from './load-balancers.service.js';

/* The load balancers module's answers: every row the API shows is mapped here, in one place. */

export const lbView = ({ lb, targetVmIds, sync }: LbDetail) => ({
  uuid: lb.uuid,
  name: lb.name,
  location_id: lb.locationId,
  algorithm: lb.algorithm,
  forwarding_rules: lb.forwardingRules,
  health_check: lb.healthCheck ?? null,
  target_vm_ids: targetVmIds,
  status: lb.status,
  address: lb.address,
  last_error: sync.lastError,
  synced: sync.state === 'synced',
  sync: syncView(sync),
  created_at: lb.createdAt.toISOString(),
  updated_at: lb.updatedAt.toISOString(),
});

export const adminLbView = (d: LbDetail) => ({ ...lbView(d), customer_id: d.lb.customerId, price_key: d.lb.priceKey });

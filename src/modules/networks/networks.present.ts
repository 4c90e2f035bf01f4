import { syncView } from '../../platform/lifecycle/index.js';
import { hostCapacity, gatewayOf } from './networks.addresses.js';
import type { IpWithSync, NetworkWithSync } from './networks.service.js';

/** The stored `Active` reads `ACTIVE` in list and detail. */
export function networkView({ network: n, used, sync }: NetworkWithSync) {
  return {
    id: n.id,
    uuid: n.uuid,
    name: n.name,
    location_id: n.locationId,
    customer_id: n.customerId,
    network_ip: n.networkIp,
    cidr: n.cidr,
    gateway: gatewayOf({ networkIp: n.networkIp, cidr: n.cidr }),
    status: n.status === 'Active' ? 'ACTIVE' : 'Creating',
    ip_usage: { used, total: hostCapacity(n.cidr) },
    sync: syncView(sync),
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}

export function ipView(ip: IpWithSync) {
  return {
    id: ip.id,
    ip: ip.ip,
    ip_description: ip.ipDescription,
    instance_id: ip.instanceId,
    instance_type: ip.instanceType,
    pos_x: ip.posX,
    pos_y: ip.posY,
    is_registered: ip.isRegistered,
    pending_action: ip.task ?? null,
    sync: syncView(ip.sync),
    created_at: ip.createdAt.toISOString(),
  };
}

/** Backoffice: the stored status (Creating, Active, Deleted) and the datacenter side. */
export function adminNetworkView(x: NetworkWithSync) {
  const n = x.network;
  return {
    ...networkView(x),
    status: n.status,
    pending_action: n.task ?? null,
    external_id: n.externalId,
    last_error: x.sync.lastError,
    deleted_at: n.deletedAt ? n.deletedAt.toISOString() : null,
  };
}

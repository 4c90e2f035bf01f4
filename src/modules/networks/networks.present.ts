import { hostCapacity, gatewayOf } from './networks.addresses.js';
import type { PrivateIp, PrivateNetwork } from './networks.repository.js';

/** Spec 4.6: the stored `Active` reads `ACTIVE` in list and detail. */
export function networkView(n: PrivateNetwork, used: number) {
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
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}

export function ipView(ip: PrivateIp) {
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
    created_at: ip.createdAt.toISOString(),
  };
}

/** Backoffice: the stored status (Creating, Active, Deleted) and the datacenter side. */
export function adminNetworkView(n: PrivateNetwork, used: number) {
  return {
    ...networkView(n, used),
    status: n.status,
    pending_action: n.task ?? null,
    external_id: n.externalId,
    last_error: n.lastError,
    deleted_at: n.deletedAt ? n.deletedAt.toISOString() : null,
  };
}

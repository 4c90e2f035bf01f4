import { syncView } from '../../platform/lifecycle/index.js';
import type { HypervisorCapacity } from '../../integrations/datacenter/index.js';
import { moneyJson, rateJson } from '../../platform/money.js';
import { loginUserOf, type OperatingSystem } from './operating-systems.js';
import type { CatalogStorageTierEntry, CatalogTierEntry, StaffVm, VmWithSync } from './compute.service.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function vmView(v: VmWithSync) {
  return {
    id: v.id,
    name: v.name,
    location_id: v.locationId,
    tier_id: v.tierId,
    os: v.os,
    status: v.status,
    pending_action: v.task ?? null,
    resize: v.task === 'resize' && v.resizeTierId !== null ? { from_tier_id: v.tierId, to_tier_id: v.resizeTierId } : null,
    public_ip: v.publicIp,
    cpu: v.cpu,
    memory_mb: v.memoryMb,
    disk_gb: v.diskGb,
    ssh_key_ids: v.sshKeys.map((k) => k.id),
    ssh_keys: v.sshKeys.map((k) => ({ id: k.id, name: k.name, fingerprint: k.fingerprint })),
    login_user: loginUserOf(v.os),
    has_user_data: v.userData !== null,
    block_storage: v.blockStorageTierId !== null && v.blockStorageGb !== null ? { tier_id: v.blockStorageTierId, size_gb: v.blockStorageGb } : null,
    rescue: v.rescue,
    error: v.status === 'Error' && v.failedTask ? { action: v.failedTask, message: v.sync.lastError ?? 'datacenter call failed' } : null,
    sync: syncView(v.sync),
    suspend_reason: v.status === 'Suspended' ? v.suspendReason : null,
    suspended_at: v.status === 'Suspended' ? iso(v.suspendedAt) : null,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
    deleted_at: iso(v.deletedAt),
  };
}

/** One VM for its owner, with its private addresses. */
export function vmDetailView(v: VmWithSync & { privateAddresses: { ip: string; networkUuid: string; networkName: string }[] }) {
  return { ...vmView(v), private_addresses: v.privateAddresses.map((a) => ({ ip: a.ip, network_uuid: a.networkUuid, network_name: a.networkName })) };
}

export function operatingSystemView(o: OperatingSystem) {
  return { id: o.id, name: o.name, login_user: o.loginUser };
}

export function adminVmView(v: StaffVm) {
  return {
    ...vmView(v),
    customer_id: v.customerId,
    customer: { id: v.customerId, email: v.labels?.customerEmail ?? '', name: v.labels?.customerName ?? '' },
    tier_name: v.labels?.tierName ?? '',
    location_name: v.labels?.locationName ?? '',
    external_id: v.externalId,
    hypervisor: v.hypervisor,
    block_storage_machine_id: v.blockStorageMachineId,
    started_at: iso(v.startedAt),
  };
}

/** One VM for staff, with every address it has. */
export function adminVmDetailView(v: StaffVm & { privateAddresses: { ip: string; networkUuid: string; networkName: string }[] }) {
  return {
    ...adminVmView(v),
    addresses: [
      ...(v.publicIp ? [{ type: 'public' as const, ip: v.publicIp, network_uuid: null, network_name: null }] : []),
      ...v.privateAddresses.map((a) => ({ type: 'private' as const, ip: a.ip, network_uuid: a.networkUuid, network_name: a.networkName })),
    ],
  };
}

export function hypervisorView(h: HypervisorCapacity) {
  return {
    name: h.name,
    vcpu_total: h.vcpuTotal,
    vcpu_used: h.vcpuUsed,
    memory_mb_total: h.memoryMbTotal,
    memory_mb_used: h.memoryMbUsed,
    memory_mb_free: Math.max(0, h.memoryMbTotal - h.memoryMbUsed),
    machines: h.machines,
  };
}

/** A tier of the catalog (GET /api/compute/tiers). */
export function catalogTierView({ tier: t, tierTypeName, locationId, price }: CatalogTierEntry) {
  return {
    id: t.id,
    name: t.name,
    tier_type_id: t.tierTypeId,
    tier_type_name: tierTypeName,
    cpu: t.cpu,
    memory_mb: t.memoryMb,
    disk_gb: t.diskGb,
    cpu_limit: t.cpuLimit,
    loadbalance_enabled: t.loadbalanceEnabled,
    location_id: locationId,
    monthly_price: moneyJson(price.monthlyPrice),
    hourly_price: rateJson(price.hourlyPrice),
  };
}

/** A block storage tier of the catalog (GET /api/compute/block-storage-tiers). */
export function catalogStorageTierView({ tier: t, locationId, price }: CatalogStorageTierEntry) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    location_id: locationId,
    monthly_price_per_gb: moneyJson(price.monthlyPrice),
    hourly_price_per_gb: rateJson(price.hourlyPrice),
  };
}

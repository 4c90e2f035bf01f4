import { syncView } from '../../platform/lifecycle/index.js';
import type { HypervisorCapacity } from '../../integrations/datacenter/index.js';
import type { VmWithSync } from './compute.service.js';

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
    public_ip: v.publicIp,
    cpu: v.cpu,
    memory_mb: v.memoryMb,
    disk_gb: v.diskGb,
    ssh_key_ids: v.sshKeys.map((k) => k.id),
    ssh_keys: v.sshKeys.map((k) => ({ id: k.id, name: k.name, fingerprint: k.fingerprint })),
    block_storage: v.blockStorageTierId !== null && v.blockStorageGb !== null ? { tier_id: v.blockStorageTierId, size_gb: v.blockStorageGb } : null,
    error: v.status === 'Error' && v.failedTask ? { action: v.failedTask, message: v.sync.lastError ?? 'datacenter call failed' } : null,
    sync: syncView(v.sync),
    suspend_reason: v.status === 'Suspended' ? v.suspendReason : null,
    suspended_at: v.status === 'Suspended' ? iso(v.suspendedAt) : null,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
    deleted_at: iso(v.deletedAt),
  };
}

export function adminVmView(v: VmWithSync) {
  return {
    ...vmView(v),
    customer_id: v.customerId,
    external_id: v.externalId,
    hypervisor: v.hypervisor,
    block_storage_machine_id: v.blockStorageMachineId,
    started_at: iso(v.startedAt),
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

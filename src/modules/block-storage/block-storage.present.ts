import type { BlockStorageMachine, StorageTier } from './block-storage.repository.js';

/* The block storage module's answers: every row the API shows is mapped here, in one place. */

export function machineView(m: BlockStorageMachine) {
  return {
    id: m.id,
    location_id: m.locationId,
    name: m.name,
    hypervisor_ip: m.hypervisorIp,
    capacity_gb: m.capacityGb,
    used_gb: m.usedGb,
    free_gb: m.capacityGb - m.usedGb,
    created_at: m.createdAt.toISOString(),
  };
}

export function storageTierView(t: StorageTier) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    is_active: t.isActive,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

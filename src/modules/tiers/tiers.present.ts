import type { Tier, TierType } from './tiers.repository.js';

/* The tiers module's answers: every row the API shows is mapped here, in one place. */

export const tierTypeView = (t: TierType) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

/** A tier with the name of its type ('' when the type is gone). */
export function tierView(t: Tier, tierTypeName: string) {
  return {
    id: t.id,
    name: t.name,
    tier_type_id: t.tierTypeId,
    tier_type_name: tierTypeName,
    cpu: t.cpu,
    memory_mb: t.memoryMb,
    disk_gb: t.diskGb,
    cpu_limit: t.cpuLimit,
    location_id: t.locationId,
    is_visible: t.isVisible,
    loadbalance_enabled: t.loadbalanceEnabled,
    loadbalance_config: t.loadbalanceConfig,
    deleted_at: t.deletedAt ? t.deletedAt.toISOString() : null,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

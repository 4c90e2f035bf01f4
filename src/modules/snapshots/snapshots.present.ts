import type { SnapshotWithState } from './snapshots.service.js';

/* The snapshots module's answers: every row the API shows is mapped here, in one place. */

export function snapshotView(s: SnapshotWithState) {
  return {
    id: s.id,
    name: s.name,
    vm_id: s.vmId,
    location_id: s.locationId,
    status: s.status,
    include_volume: s.includeVolume,
    os: s.os,
    disk_gb: s.diskGb,
    volume_gb: s.volumeGb,
    consistency: s.consistency,
    size_bytes: s.sizeBytes,
    size_gb: s.sizeGb,
    error: s.error,
    restoring: s.restoring,
    created_at: s.createdAt.toISOString(),
    completed_at: s.completedAt?.toISOString() ?? null,
  };
}

export function adminSnapshotView(s: SnapshotWithState) {
  return { ...snapshotView(s), customer_id: s.customerId };
}

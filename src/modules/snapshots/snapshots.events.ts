import type { WebhookEvent } from '../webhooks/index.js';
import type { Snapshot } from './snapshots.repository.js';

/** `snapshot.completed`: the snapshot is Available (billed from now). */
export function snapshotCompleted(s: Snapshot): WebhookEvent {
  return { customerId: s.customerId, type: 'snapshot.completed', data: { snapshot_id: s.id, name: s.name, vm_id: s.vmId, size_gb: s.sizeGb, consistency: s.consistency } };
}

/** `snapshot.failed`: the datacenter could not take it (nothing is billed; it can be deleted). */
export function snapshotFailed(s: Snapshot, error: string): WebhookEvent {
  return { customerId: s.customerId, type: 'snapshot.failed', data: { snapshot_id: s.id, name: s.name, vm_id: s.vmId, error } };
}

/** `snapshot.restore_failed`: a restore asked for the VM ended without writing its disks (a suspension took it over, or the datacenter refused meanwhile). */
export function snapshotRestoreFailed(s: Snapshot, vmId: number, error: string): WebhookEvent {
  return { customerId: s.customerId, type: 'snapshot.restore_failed', data: { snapshot_id: s.id, name: s.name, vm_id: vmId, error } };
}

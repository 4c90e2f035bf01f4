import type { Backup, BackupPolicyRow, Restore } from './backups.repository.js';
import type { PlanView } from './backups.service.js';

export function backupView(b: Backup) {
  return {
    id: b.id,
    vm_id: b.vmId,
    vm_name: b.vmName,
    location_id: b.locationId,
    trigger: b.trigger,
    status: b.status,
    reason: b.reason,
    attempts: b.attempts,
    next_attempt_at: b.status === 'pending' ? b.nextAttemptAt.toISOString() : null,
    disk_bytes: b.diskBytes,
    stored_bytes: b.storedBytes,
    sent_bytes: b.sentBytes,
    duration_ms: b.durationMs,
    created_at: b.createdAt.toISOString(),
    completed_at: b.completedAt?.toISOString() ?? null,
  };
}

export function restoreView(r: Restore) {
  return {
    id: r.id,
    backup_id: r.backupId,
    vm_id: r.vmId,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    attempts: r.attempts,
    by_staff: r.adminId !== null,
    created_at: r.createdAt.toISOString(),
    completed_at: r.completedAt?.toISOString() ?? null,
  };
}

export function planView(p: PlanView) {
  return { ...p, price_share_percent: Number(p.price_share_percent), hourly_price: Number(p.hourly_price) };
}

export function policyView(p: BackupPolicyRow) {
  return { price_share_percent: Number(p.priceSharePercent), keep_last: p.keepLast };
}

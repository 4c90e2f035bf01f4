import type { Alert, AlertPolicy, AlertWithVm } from './alerts.repository.js';

export function policyView(p: AlertPolicy, openAlerts = 0) {
  return {
    id: p.id,
    name: p.name,
    vm_id: p.vmId,
    metric: p.metric,
    comparison: p.comparison,
    threshold: Number(p.threshold),
    aggregation: p.aggregation,
    window_minutes: p.windowMinutes,
    notify_email: p.notifyEmail,
    enabled: p.enabled,
    open_alerts: openAlerts,
    evaluated_until: p.evaluatedUntil ? p.evaluatedUntil.toISOString() : null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function alertView(a: Alert | AlertWithVm) {
  return {
    id: a.id,
    policy_id: a.policyId,
    policy_name: a.policyName,
    vm_id: a.vmId,
    vm_name: 'vmName' in a ? a.vmName : null,
    metric: a.metric,
    comparison: a.comparison,
    threshold: Number(a.threshold),
    aggregation: a.aggregation,
    window_minutes: a.windowMinutes,
    status: a.resolvedAt ? 'resolved' : 'firing',
    fired_value: Number(a.firedValue),
    resolved_value: a.resolvedValue === null ? null : Number(a.resolvedValue),
    resolution: a.resolution,
    started_at: a.startedAt.toISOString(),
    resolved_at: a.resolvedAt ? a.resolvedAt.toISOString() : null,
  };
}

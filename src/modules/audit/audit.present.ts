import type { AuditRow } from './audit.repository.js';

/* The audit module's answers: every audit row the API shows is mapped here, in one place. */

/** An entry of the audit log, as the backoffice sees it. */
export function auditEntryView(r: AuditRow) {
  return {
    id: r.id,
    actor_type: r.actorType,
    actor_id: r.actorId,
    impersonator_admin_id: r.impersonatorAdminId,
    action: r.action,
    target_type: r.targetType,
    target_id: r.targetId,
    before: r.before,
    after: r.after,
    ip: r.ip,
    user_agent: r.userAgent,
    created_at: r.createdAt.toISOString(),
  };
}

/** An entry of a customer's own activity log: no actor, and whether staff did it impersonating. */
export function activityEntryView(r: AuditRow & { byEmail: string | null }) {
  return {
    id: r.id,
    by: { customer_id: r.memberId ?? r.actorId, email: r.byEmail },
    action: r.action,
    target_type: r.targetType,
    target_id: r.targetId,
    details: r.after,
    impersonated: r.impersonatorAdminId !== null,
    ip: r.ip,
    user_agent: r.userAgent,
    created_at: r.createdAt.toISOString(),
  };
}

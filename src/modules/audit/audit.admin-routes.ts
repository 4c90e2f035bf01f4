import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { errorResponses, Paginated } from '../../platform/http/schemas.js';
import { AuditLogEntry, AuditLogQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';
import type { AuditRow } from './audit.repository.js';

const tags = ['Backoffice: audit'];

function present(r: AuditRow) {
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

export const auditAdminRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '',
    {
      config: { permission: 'view_audit_logs' },
      schema: {
        tags,
        summary: 'The audit log, newest first; filter by actor_id, action, target_type',
        querystring: AuditLogQuery,
        response: { 200: Paginated(AuditLogEntry), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await audit.list({ actorId: req.query.actor_id, action: req.query.action, targetType: req.query.target_type }, p);
      return paginated('OK', p, { items: page.items.map(present), total: page.total });
    },
  );
};

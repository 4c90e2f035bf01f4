import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { errorResponses, Paginated } from '../../platform/http/schemas.js';
import { auditEntryView } from './audit.present.js';
import { AuditLogEntry, AuditLogQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

const tags = ['Backoffice: audit'];

export const auditAdminRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '',
    {
      config: { permission: 'view_audit_logs' },
      schema: {
        tags,
        summary: 'The audit log, newest first; filter by actor_type, actor_id, action, target_type, target_id',
        description: 'A customer\'s activity (their writes, in their sessions or impersonated, and their security events): actor_type=customer&actor_id=<customer id>.',
        querystring: AuditLogQuery,
        response: { 200: Paginated(AuditLogEntry), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const q = req.query;
      const page = await audit.list({ actorType: q.actor_type, actorId: q.actor_id, action: q.action, targetType: q.target_type, targetId: q.target_id }, p);
      return paginated('OK', p, { items: page.items.map(auditEntryView), total: page.total });
    },
  );
};

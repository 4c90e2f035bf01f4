import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { errorResponses, Paginated } from '../../platform/http/schemas.js';
import { activityEntryView } from './audit.present.js';
import { ActivityEntry, ActivityQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

const tags = ['Activity'];

/** GET /api/activity: the customer's own activity log (customer surface). */
export const activityRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'My account activity, newest first: what was created, changed and deleted, deposits, and sign-ins and other security events',
        description:
          'Every signed-in write of the customer API is recorded in the transaction of its change, with the IP address, the user agent and whether platform staff did it in an impersonated session.',
        querystring: ActivityQuery,
        response: { 200: Paginated(ActivityEntry), ...errorResponses(400, 401) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await audit.activityOf(customerOf(req).customerId, p);
      return paginated('OK', p, { items: page.items.map(activityEntryView), total: page.total });
    },
  );
};

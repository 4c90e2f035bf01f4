import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { errorResponses, Paginated } from '../../platform/http/schemas.js';
import { adminLbView } from './load-balancers.present.js';
import { AdminLbQuery, AdminLoadBalancer } from './load-balancers.schemas.js';
import type { LoadBalancersService } from './load-balancers.service.js';

/** Backoffice: every customer's load balancers (view_network). */
export const loadBalancersAdminRoutes: FastifyPluginAsyncTypebox<{ balancers: LoadBalancersService }> = async (app, { balancers }) => {
  app.get(
    '/network/load-balancers',
    {
      config: { permission: 'view_network' },
      schema: {
        tags: ['Backoffice network'],
        summary: 'Load balancers of all customers, newest first (Deleted ones only with status=Deleted)',
        querystring: AdminLbQuery,
        response: { 200: Paginated(AdminLoadBalancer), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await balancers.adminList({ ...(req.query.customer_id !== undefined ? { customerId: req.query.customer_id } : {}), ...(req.query.status ? { status: req.query.status } : {}) }, p);
      return paginated('OK', p, { items: page.items.map(adminLbView), total: page.total });
    },
  );
};

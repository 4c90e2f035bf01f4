import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { adminNetworkView, ipView } from './networks.present.js';
import { AdminNetworkDetail, AdminNetworkListQuery, AdminPrivateNetwork, NetworkParams } from './networks.schemas.js';
import type { NetworksService } from './networks.service.js';

const tags = ['Backoffice: networks'];

/** /api/backoffice/network/private: every customer's private networks and their IP occupation (read only). */
export const networksAdminRoutes: FastifyPluginAsyncTypebox<{ networks: NetworksService }> = async (app, { networks }) => {
  app.get(
    '',
    {
      config: { permission: 'view_network' },
      schema: { tags, summary: 'Private networks of all customers with their IP occupation', querystring: AdminNetworkListQuery, response: { 200: Paginated(AdminPrivateNetwork), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await networks.adminList({ customerId: req.query.customer_id, locationId: req.query.location_id, includeDeleted: req.query.include_deleted === true }, p);
      return paginated('OK', p, { items: page.items.map(adminNetworkView), total: page.total });
    },
  );

  app.get(
    '/:uuid',
    { config: { permission: 'view_network' }, schema: { tags, summary: 'One private network (deleted ones too) with its addresses', params: NetworkParams, response: { 200: Envelope(AdminNetworkDetail), ...errorResponses(400, 401, 403, 404) } } },
    async (req) => {
      const x = await networks.adminGet(req.params.uuid);
      return { message: 'OK', data: { ...adminNetworkView(x), ips: x.ips.map(ipView) } };
    },
  );
};

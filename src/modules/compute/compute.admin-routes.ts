import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Type } from 'typebox';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { adminVmDetailView, adminVmView, hypervisorView } from './compute.present.js';
import { AdminVm, AdminVmDetail, AdminVmListQuery, Hypervisor, LocationParams, VmParams } from './compute.schemas.js';
import type { ComputeService } from './compute.service.js';
import type { VmStatus } from './compute.tables.js';

const tags = ['Backoffice: compute'];

/** /api/backoffice/compute/vm: every customer's VMs, for support. */
export const computeAdminRoutes: FastifyPluginAsyncTypebox<{ compute: ComputeService }> = async (app, { compute }) => {
  app.get(
    '/vm',
    {
      config: { permission: 'view_compute' },
      schema: { tags, summary: 'VMs of all customers with filters', querystring: AdminVmListQuery, response: { 200: Paginated(AdminVm), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const q = req.query;
      const page = await compute.adminList(
        { customerId: q.customer_id, status: q.status as VmStatus | undefined, locationId: q.location_id, tierId: q.tier_id, search: q.search, includeDeleted: q.include_deleted === true },
        p,
      );
      return paginated('OK', p, { items: page.items.map(adminVmView), total: page.total });
    },
  );

  app.get(
    '/vm/:id',
    {
      config: { permission: 'view_compute' },
      schema: { tags, summary: 'One VM with its datacenter details, owner and every address', params: VmParams, response: { 200: Envelope(AdminVmDetail), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: adminVmDetailView(await compute.adminDetail(req.params.id)) }),
  );

  app.get(
    '/locations/:id/hypervisors',
    {
      config: { permission: 'view_compute' },
      schema: {
        tags,
        summary: "A location's hypervisors and what they hold, asked of the datacenter now",
        description: 'An unknown location is 404; a datacenter that does not answer is 503 DATACENTER_UNAVAILABLE.',
        params: LocationParams,
        response: { 200: Envelope(Type.Array(Hypervisor)), ...errorResponses(401, 403, 404, 503) },
      },
    },
    async (req) => ({ message: 'OK', data: (await compute.hypervisors(req.params.id)).map(hypervisorView) }),
  );
};

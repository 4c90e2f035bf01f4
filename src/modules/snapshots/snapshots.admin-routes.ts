import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { adminSnapshotView } from './snapshots.present.js';
import { AdminSnapshot, AdminSnapshotListQuery, SnapshotParams } from './snapshots.schemas.js';
import type { SnapshotsService } from './snapshots.service.js';

const tags = ['Backoffice: compute'];

/** /api/backoffice/compute/snapshots: every customer's VM snapshots, for support. */
export const snapshotAdminRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotsService }> = async (app, { snapshots }) => {
  app.get(
    '/snapshots',
    {
      config: { permission: 'view_compute' },
      schema: { tags, summary: 'Snapshots of all customers, newest first; customer_id and vm_id narrow them', querystring: AdminSnapshotListQuery, response: { 200: Paginated(AdminSnapshot), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const q = req.query;
      const page = await snapshots.list(undefined, { customerId: q.customer_id, vmId: q.vm_id, includeDeleted: q.include_deleted === true }, p);
      return paginated('OK', p, { items: page.items.map(adminSnapshotView), total: page.total });
    },
  );

  app.post(
    '/snapshots/:id/restore',
    {
      config: { permission: 'operate_compute', audit: 'vm.staff_restore' },
      schema: {
        tags,
        summary: "Restores a customer's VM from its snapshot on their behalf (what it wrote since is lost)",
        description: "Audited; the customer is told in the app (VM_STAFF_ACTION) and by mail. The customer's rules apply: 409 VM_BUSY while another change is in flight, 409 INVALID_SNAPSHOT_STATE unless Available, 409 VM_DELETED.",
        params: SnapshotParams,
        response: { 200: Envelope(AdminSnapshot), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const admin = adminOf(req);
      const done = await snapshots.staffRestore({ adminId: admin.adminId, ip: req.ip, userAgent: req.headers['user-agent'] }, req.params.id);
      return { message: 'VM is being restored', data: adminSnapshotView(done.snapshot) };
    },
  );
};

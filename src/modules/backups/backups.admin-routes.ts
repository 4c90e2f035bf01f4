import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { backupView, policyView, restoreView } from './backups.present.js';
import { BackupIdParams, BackupItem, Policy, PolicyBody, RestoreItem, StaffListQuery, StaffRestoreBody, UsageQuery, UsageRow } from './backups.schemas.js';
import type { BackupsService } from './backups.service.js';

const tags = ['Backoffice: backups'];

/** /api/backoffice/backups: usage per customer and location, the price share and keep-last, restores on a customer's behalf. */
export const backupAdminRoutes: FastifyPluginAsyncTypebox<{ backups: BackupsService }> = async (app, { backups }) => {
  app.get(
    '/usage',
    {
      config: { permission: 'view_compute' },
      schema: { tags, summary: 'Backups per customer and location: VMs with backups on, backups kept, their stored bytes, failed ones', querystring: UsageQuery, response: { 200: Envelope(Type.Array(UsageRow)), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({
      message: 'OK',
      data: (await backups.usage({ customerId: req.query.customer_id, locationId: req.query.location_id })).map((r) => ({ ...r, stored_bytes: Number(r.stored_bytes) })),
    }),
  );

  app.get(
    '/',
    {
      config: { permission: 'view_compute' },
      schema: { tags, summary: "A VM's backups, or a customer's (the newest 100)", querystring: StaffListQuery, response: { 200: Envelope(Type.Array(BackupItem)), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'OK', data: (await backups.staffList({ vmId: req.query.vm_id, customerId: req.query.customer_id })).map(backupView) }),
  );

  app.get(
    '/policy',
    { config: { permission: 'view_pricing' }, schema: { tags, summary: "The price share of backups (percent of the VM's tier price) and how many each VM keeps", response: { 200: Envelope(Policy), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: policyView(await backups.policy()) }),
  );

  app.patch(
    '/policy',
    {
      config: { permission: 'manage_pricing', audit: 'backup.policy_updated' },
      schema: {
        tags,
        summary: 'Sets the price share and keep-last of backups',
        description: 'A new share applies from now to every VM with backups on (their meters are closed and opened again at the new share); keep-last applies at each VM’s next backup.',
        body: PolicyBody,
        response: { 200: Envelope(Policy), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const admin = adminOf(req);
      return { message: 'Backup policy saved', data: policyView(await backups.updatePolicy({ type: 'admin', id: admin.adminId, ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }, req.body)) };
    },
  );

  app.post(
    '/:backup_id/restore',
    {
      config: { permission: 'operate_compute', audit: 'backup.staff_restore' },
      schema: {
        tags,
        summary: "Restores a customer's VM from one of its backups (its own VM unless vm_id names another VM of the customer)",
        description: "Audited; the customer is told in the app. The customer's rules apply: 409 VM_BUSY while another change is in flight, 402 when it would start a stopped VM of an account that may not start anything billable.",
        params: BackupIdParams,
        body: StaffRestoreBody,
        response: { 202: Envelope(RestoreItem), ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const admin = adminOf(req);
      const r = await backups.staffRestore({ type: 'admin', id: admin.adminId, ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }, req.params.backup_id, req.body.vm_id);
      reply.code(202);
      return { message: 'Restore started', data: restoreView(r) };
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { adminVmView } from './compute.present.js';
import { AdminVm, VmParams } from './compute.schemas.js';
import { emptyBody, RebuildBody } from './vm-actions.schemas.js';
import type { VmAction, VmActionsService } from './vm-actions.service.js';
import type { ComputeService } from './compute.service.js';

const tags = ['Backoffice: compute'];
const TOLD = "Audited; the customer is told in the app (VM_STAFF_ACTION) and by mail. The customer's rules apply: 409 VM_BUSY while another change is in flight, 402 when it would start a stopped VM of an account that may not start anything billable.";

/** /api/backoffice/compute/vm/{id}/…: staff act on a customer's VM for support (operate_compute). */
export const vmActionAdminRoutes: FastifyPluginAsyncTypebox<{ actions: VmActionsService; compute: ComputeService }> = async (app, { actions, compute }) => {
  const route = (action: VmAction, summary: string, body?: typeof RebuildBody) =>
    app.post(
      `/vm/:id/${action}`,
      {
        config: { permission: 'operate_compute', audit: `vm.staff_${action}` },
        ...(body ? { preValidation: emptyBody } : {}),
        schema: { tags, summary, description: TOLD, params: VmParams, ...(body ? { body } : {}), response: { 200: Envelope(AdminVm), ...errorResponses(400, 401, 402, 403, 404, 409) } },
      },
      async (req) => {
        const admin = adminOf(req);
        const input = req.body as { os?: string } | undefined;
        const id = (req.params as { id: number }).id;
        const acted = await actions.staffAct({ adminId: admin.adminId, ip: req.ip, userAgent: req.headers['user-agent'] }, id, action, { os: input?.os });
        // the VM as the action left it (its job may already have run by now), with what staff see of it
        return { message: 'OK', data: adminVmView({ ...(await compute.adminDetail(id)), ...acted }) };
      },
    );

  route('start', "Starts a customer's Stopped VM");
  route('stop', "Stops a customer's Running VM");
  route('reboot', "Reboots a customer's Running VM (ACPI; a reset if it has not come back within the shutdown timeout)");
  route('reset', "Hard-reboots a customer's Running VM (a reset)");
  route('rebuild', "Reinstalls a customer's VM from an OS image (everything on its boot disk is lost)", RebuildBody);
  route('rescue', "Boots a customer's VM from the rescue system with its disks attached");
  route('unrescue', "Makes a customer's VM boot its own disk again");
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { vmView } from './compute.present.js';
import { Vm, VmParams } from './compute.schemas.js';
import { RebuildBody, RenameBody } from './vm-actions.schemas.js';
import type { VmActionsService } from './vm-actions.service.js';
import { emptyBody } from './vm-actions.schemas.js';

const tags = ['Compute'];
const BUSY = 'A VM with another change in flight (pending_action set) answers 409 VM_BUSY; a Suspended VM 409 VM_SUSPENDED.';

/** /api/compute/vm/{id}: reboot, rename, rebuild and rescue (docs/api.md, "Catalog, prices and compute": the VM actions). */
export const vmActionRoutes: FastifyPluginAsyncTypebox<{ actions: VmActionsService }> = async (app, { actions }) => {
  const noBody = { preValidation: emptyBody };
  for (const [path, task, summary] of [
    ['reboot', 'reboot', 'Reboots a Running VM: an ACPI reboot, a reset if the guest has not come back within the shutdown timeout (pending_action reboot until it is up again)'],
    ['reset', 'reset', 'Hard-reboots a Running VM: a reset, as pressing the reset button (pending_action reset until it is up again)'],
  ] as const) {
    app.post(
      `/vm/:id/${path}`,
      { config: { activity: 'vm.rebooted' }, schema: { tags, summary, description: BUSY, params: VmParams, response: { 200: Envelope(Vm), ...errorResponses(401, 404, 409) } } },
      async (req) => ({ message: 'VM is rebooting', data: vmView(await actions.act(customerOf(req).customerId, (req.params as { id: number }).id, task)) }),
    );
  }

  app.patch(
    '/vm/:id',
    {
      config: { activity: 'vm.renamed' },
      schema: {
        tags,
        summary: 'Renames a VM (our record only: allowed while an action runs; the guest keeps its hostname)',
        params: VmParams,
        body: RenameBody,
        response: { 200: Envelope(Vm), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'VM renamed', data: vmView(await actions.rename(customerOf(req).customerId, req.params.id, req.body.name)) }),
  );

  app.post(
    '/vm/:id/rebuild',
    {
      config: { activity: 'vm.rebuilt' },
      ...noBody,
      schema: {
        tags,
        summary: 'Reinstalls a Running or Stopped VM from an OS image: everything on its boot disk is lost',
        description: `It keeps its name, address, SSH keys, block storage volume and private addresses; the boot disk is made anew and the guest set up again (a new instance id), and it runs afterwards. It leaves rescue. A Stopped VM is started by it, so an account that may not start anything billable gets 402 (INSUFFICIENT_BALANCE or ACCOUNT_SUSPENDED). ${BUSY}`,
        params: VmParams,
        body: RebuildBody,
        response: { 200: Envelope(Vm), ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (req) => ({ message: 'VM is being rebuilt', data: vmView(await actions.act(customerOf(req).customerId, req.params.id, 'rebuild', { os: req.body.os })) }),
  );

  app.post(
    '/vm/:id/rescue',
    {
      config: { activity: 'vm.rescued' },
      schema: {
        tags,
        summary: 'Boots a Running or Stopped VM from the rescue system (rescue true), its disks attached and its SSH keys let in',
        description: `The running system is shut down (ACPI, then pulled off). Start, stop and reboot keep the rescue system until POST .../unrescue. A Stopped VM is started by it: 402 for an account that may not start anything billable. ${BUSY}`,
        params: VmParams,
        response: { 200: Envelope(Vm), ...errorResponses(401, 402, 404, 409) },
      },
    },
    async (req) => ({ message: 'VM is booting its rescue system', data: vmView(await actions.act(customerOf(req).customerId, req.params.id, 'rescue')) }),
  );

  app.post(
    '/vm/:id/unrescue',
    {
      config: { activity: 'vm.unrescued' },
      schema: {
        tags,
        summary: 'Leaves rescue: a Running VM reboots into its own disk, a Stopped one boots it at its next start',
        description: BUSY,
        params: VmParams,
        response: { 200: Envelope(Vm), ...errorResponses(401, 404, 409) },
      },
    },
    async (req) => ({ message: 'VM is leaving rescue', data: vmView(await actions.act(customerOf(req).customerId, req.params.id, 'unrescue')) }),
  );
};

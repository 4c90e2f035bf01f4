import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { VmSchema, vmView } from '../compute/index.js';
import { snapshotView } from './snapshots.present.js';
import { CreateSnapshotBody, CreateVmFromSnapshotBody, RenameSnapshotBody, Snapshot, SnapshotListQuery, SnapshotParams } from './snapshots.schemas.js';
import type { SnapshotsService } from './snapshots.service.js';

const tags = ['Snapshots'];
const BUSY = 'Taking and restoring a snapshot are changes of the VM: one at a time, so a VM with another change in flight answers 409 VM_BUSY (and other changes wait for them the same way).';

/** /api/compute/…: a customer's VM snapshots (docs/api.md, "Snapshots"). */
export const snapshotRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotsService }> = async (app, { snapshots }) => {
  app.post(
    '/vm/:id/snapshots',
    {
      config: { activity: 'snapshot.created' },
      schema: {
        tags,
        summary: "Snapshots a Running or Stopped VM's boot disk (and its volume with include_volume): status Creating, then Available or Failed",
        description: `The VM keeps running; its file systems are frozen through the QEMU guest agent when the guest has one (consistency application), else the copy is crash-consistent. Billed per GB-month of its stored size from Available until deleted. 402 for an account that may not start anything billable (suspended, or a balance below zero); 409 QUOTA_EXCEEDED past the customer's snapshot_limit; 409 NO_VOLUME when include_volume is asked of a VM without a volume. ${BUSY}`,
        params: SnapshotParams,
        body: CreateSnapshotBody,
        response: { 201: Envelope(Snapshot), ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (req, reply) => {
      const data = snapshotView(await snapshots.create(customerOf(req).customerId, req.params.id, req.body));
      return reply.code(201).send({ message: 'Snapshot is being taken', data });
    },
  );

  app.get(
    '/vm/:id/snapshots',
    { schema: { tags, summary: "The VM's snapshots, newest first (Deleted ones left out)", params: SnapshotParams, querystring: SnapshotListQuery, response: { 200: Paginated(Snapshot), ...errorResponses(400, 401, 404) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await snapshots.list(customerOf(req).customerId, { vmId: req.params.id }, p);
      return paginated('OK', p, { items: page.items.map(snapshotView), total: page.total });
    },
  );

  app.get(
    '/snapshots',
    { schema: { tags, summary: "The customer's snapshots, newest first, of every VM (also deleted VMs); vm_id narrows them to one VM", querystring: SnapshotListQuery, response: { 200: Paginated(Snapshot), ...errorResponses(400, 401, 404) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await snapshots.list(customerOf(req).customerId, { vmId: req.query.vm_id }, p);
      return paginated('OK', p, { items: page.items.map(snapshotView), total: page.total });
    },
  );

  app.get(
    '/snapshots/:id',
    { schema: { tags, summary: 'One snapshot', params: SnapshotParams, response: { 200: Envelope(Snapshot), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: snapshotView(await snapshots.get(customerOf(req).customerId, req.params.id)) }),
  );

  app.patch(
    '/snapshots/:id',
    {
      config: { activity: 'snapshot.renamed' },
      schema: { tags, summary: 'Renames a snapshot', params: SnapshotParams, body: RenameSnapshotBody, response: { 200: Envelope(Snapshot), ...errorResponses(400, 401, 404, 409) } },
    },
    async (req) => ({ message: 'Snapshot renamed', data: snapshotView(await snapshots.rename(customerOf(req).customerId, req.params.id, req.body.name)) }),
  );

  app.delete(
    '/snapshots/:id',
    {
      config: { activity: 'snapshot.deleted' },
      schema: {
        tags,
        summary: 'Deletes an Available or Failed snapshot: Deleting, then Deleted (billing stops then)',
        description: '409 INVALID_SNAPSHOT_STATE while it is being taken; 409 SNAPSHOT_IN_USE while its VM is being restored from it.',
        params: SnapshotParams,
        response: { 200: Envelope(Snapshot), ...errorResponses(401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Snapshot is being deleted', data: snapshotView(await snapshots.delete(customerOf(req).customerId, req.params.id)) }),
  );

  app.post(
    '/snapshots/:id/create-vm',
    {
      config: { activity: 'vm.created' },
      schema: {
        tags,
        summary: "Creates a new VM whose boot disk is a copy of the snapshot, in the snapshot's location, on a tier whose disk is at least the snapshot's disk_gb",
        description: "The boot disk is the snapshot's (grown to the tier's disk), with the OS it had; the volume of a snapshot that holds one is not copied. A tier with a smaller disk is a 400 DISK_TOO_SMALL; otherwise the rules of POST /api/compute/vm apply (402, 409 QUOTA_EXCEEDED, NO_CAPACITY). While the VM is being created the snapshot cannot be deleted (409 SNAPSHOT_IN_USE).",
        params: SnapshotParams,
        body: CreateVmFromSnapshotBody,
        response: { 201: Envelope(VmSchema), ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (req, reply) => {
      const data = vmView(await snapshots.createVm(customerOf(req).customerId, req.params.id, req.body));
      return reply.code(201).send({ message: 'VM is being created from the snapshot', data });
    },
  );

  app.post(
    '/snapshots/:id/restore',
    {
      config: { activity: 'snapshot.restored' },
      schema: {
        tags,
        summary: 'Restores the VM the snapshot was taken of: everything written on its disks since the snapshot is lost',
        description: `The VM (Running or Stopped) is shut down, its boot disk (and its volume, when the snapshot holds it) replaced from the snapshot, and it is started again if it ran (pending_action restore meanwhile). A failure leaves the VM in Error with failed_action restore: POST /api/compute/vm/{id}/retry restores it again. 409 VM_DELETED when that VM is gone. ${BUSY}`,
        params: SnapshotParams,
        response: { 200: Envelope(Snapshot), ...errorResponses(401, 404, 409) },
      },
    },
    async (req) => ({ message: 'VM is being restored', data: snapshotView((await snapshots.restore(customerOf(req).customerId, req.params.id)).snapshot) }),
  );
};

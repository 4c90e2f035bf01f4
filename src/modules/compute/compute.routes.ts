import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { catalogStorageTierView, catalogTierView, operatingSystemView, vmDetailView, vmView } from './compute.present.js';
import { OS_CATALOG } from './operating-systems.js';
import { CatalogQuery, CatalogStorageTier, CatalogTier, CreateVmBody, OperatingSystem, Vm, VmDetail, VmListQuery, VmParams } from './compute.schemas.js';
import type { ComputeService } from './compute.service.js';
import type { VmStatus } from './compute.tables.js';

const tags = ['Compute'];

/** /api/compute (customer surface): the catalog and the VMs (docs/decisions.md §6, §8). */
export const computeRoutes: FastifyPluginAsyncTypebox<{ compute: ComputeService }> = async (app, { compute }) => {
  app.get(
    '/tiers',
    {
      schema: { tags, summary: 'Tiers offered in a location, with their prices', querystring: CatalogQuery, response: { 200: Envelope(Type.Array(CatalogTier)), ...errorResponses(400, 401) } },
    },
    async (req) => ({ message: 'OK', data: (await compute.catalog(req.query.location_id)).map(catalogTierView) }),
  );

  app.get(
    '/os',
    { schema: { tags, summary: 'The operating systems VMs can be created with, and the user each lets in over SSH', response: { 200: Envelope(Type.Array(OperatingSystem)), ...errorResponses(401) } } },
    async () => ({ message: 'OK', data: OS_CATALOG.map(operatingSystemView) }),
  );

  app.get(
    '/block-storage-tiers',
    {
      schema: {
        tags,
        summary: 'Block storage tiers offered in a location, with their prices per GB',
        querystring: CatalogQuery,
        response: { 200: Envelope(Type.Array(CatalogStorageTier)), ...errorResponses(400, 401) },
      },
    },
    async (req) => ({ message: 'OK', data: (await compute.storageCatalog(req.query.location_id)).map(catalogStorageTierView) }),
  );

  app.post(
    '/vm',
    {
      config: { activity: 'vm.created' },
      schema: {
        tags,
        summary: 'Creates a VM (status Creating; Running once the datacenter has made it)',
        description:
          'Refused while the account is suspended or its balance is below zero (402 INSUFFICIENT_BALANCE, or ACCOUNT_SUSPENDED for overdue postpaid invoices). vm_limit, public_ip_limit and block_storage_limit are enforced (409 QUOTA_EXCEEDED); an exhausted address pool or storage is 409 NO_CAPACITY.',
        body: CreateVmBody,
        response: { 201: Envelope(Vm), ...errorResponses(400, 401, 402, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'VM is being created', data: vmView(await compute.create(customerOf(req).customerId, req.body)) }),
  );

  app.get(
    '/vm',
    { schema: { tags, summary: 'My VMs, newest first (Deleted ones with include_deleted=true)', querystring: VmListQuery, response: { 200: Paginated(Vm), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await compute.list(customerOf(req).customerId, { status: req.query.status as VmStatus | undefined, includeDeleted: req.query.include_deleted === true }, p);
      return paginated('OK', p, { items: page.items.map(vmView), total: page.total });
    },
  );

  app.get(
    '/vm/:id',
    { schema: { tags, summary: 'One of my VMs, with its private addresses', params: VmParams, response: { 200: Envelope(VmDetail), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: vmDetailView(await compute.detail(customerOf(req).customerId, req.params.id)) }),
  );

  const action = (path: string, activity: string, summary: string, message: string, run: (customerId: number, id: number) => ReturnType<ComputeService['start']>, statuses: number[] = []) =>
    app.post(path, { config: { activity }, schema: { tags, summary, params: VmParams, response: { 200: Envelope(Vm), ...errorResponses(401, 404, 409, ...statuses) } } }, async (req) => ({
      message,
      data: vmView(await run(customerOf(req).customerId, (req.params as { id: number }).id)),
    }));

  action('/vm/:id/start', 'vm.started', 'Starts a Stopped VM (pending_action start until the datacenter is done)', 'VM is starting', (c, id) => compute.start(c, id));
  action('/vm/:id/stop', 'vm.stopped', 'Stops a Running VM (pending_action stop until the datacenter is done)', 'VM is stopping', (c, id) => compute.stop(c, id));
  action('/vm/:id/retry', 'vm.retried', 'Runs the failed action of a VM in Error again; one that leaves the machine running (every action but stop and delete) is refused while the account is suspended or below zero: 402', 'VM action retried', (c, id) => compute.retry(c, id), [402]);

  app.delete(
    '/vm/:id',
    { config: { activity: 'vm.deleted' }, schema: { tags, summary: 'Deletes a VM (Deleting, then Deleted; its public IP returns to the pool)', params: VmParams, response: { 200: Envelope(Vm), ...errorResponses(401, 404, 409) } } },
    async (req) => ({ message: 'VM is being deleted', data: vmView(await compute.delete(customerOf(req).customerId, req.params.id)) }),
  );
};

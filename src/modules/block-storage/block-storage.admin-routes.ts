import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { BlockStorageMachine, IdParams, StorageTier, UpdateStorageTierBody } from './block-storage.schemas.js';
import { machineView, storageTierView } from './block-storage.present.js';
import type { BlockStorageService } from './block-storage.service.js';

const tags = ['Backoffice: block storage'];

/** /api/backoffice/storage/blocks (docs/api.md, "Catalog, prices and compute"). */
export const blockStorageAdminRoutes: FastifyPluginAsyncTypebox<{ blockStorage: BlockStorageService }> = async (app, { blockStorage }) => {
  app.get(
    '',
    {
      config: { permission: 'view_block_storage' },
      schema: { tags, summary: 'Block storage machines with hypervisor IP, capacity and use (GB)', response: { 200: Envelope(Type.Array(BlockStorageMachine)), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: (await blockStorage.listMachines()).map(machineView) }),
  );

  app.get(
    '/tiers',
    { config: { permission: 'view_block_storage' }, schema: { tags, summary: 'Storage tiers', response: { 200: Envelope(Type.Array(StorageTier)), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: (await blockStorage.listTiers()).map(storageTierView) }),
  );

  app.patch(
    '/tiers/:id/update',
    {
      config: { permission: 'manage_block_storage', audit: 'storage_tier.updated' },
      schema: { tags, summary: 'Renames or describes a storage tier', params: IdParams, body: UpdateStorageTierBody, response: { 200: Envelope(StorageTier), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Storage tier updated', data: storageTierView(await blockStorage.updateTier(actorOf(req), req.params.id, req.body)) }),
  );

  app.patch(
    '/tiers/:id/update-status',
    {
      config: { permission: 'manage_block_storage', audit: 'storage_tier.status_toggled' },
      schema: { tags, summary: 'Toggles the tier ON/OFF (OFF: not offered for new VMs)', params: IdParams, response: { 200: Envelope(StorageTier), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'Storage tier status changed', data: storageTierView(await blockStorage.toggleTier(actorOf(req), req.params.id)) }),
  );
};

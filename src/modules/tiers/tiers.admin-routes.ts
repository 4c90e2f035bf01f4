import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { CreateTierBody, IdParams, Tier, TierListQuery, TierType, TierTypeBody, UpdateCpuBody, UpdateLoadbalanceBody } from './tiers.schemas.js';
import { tierTypeView, tierView } from './tiers.present.js';
import type { TiersService } from './tiers.service.js';
import type { Tier as TierRow } from './tiers.repository.js';

const tags = ['Backoffice: tiers'];

/** /api/backoffice/node/tier-type(s) and /api/backoffice/tier/... (docs/api.md, "Catalog, prices and compute"). */
export const tiersAdminRoutes: FastifyPluginAsyncTypebox<{ tiers: TiersService }> = async (app, { tiers }) => {
  const view = async (t: TierRow) => tierView(t, await tiers.typeNameOf(t));
  app.get(
    '/node/tier-types',
    { config: { permission: 'view_tiers' }, schema: { tags, summary: 'Tier types (machine families)', response: { 200: Envelope(Type.Array(TierType)), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: (await tiers.listTypes()).map(tierTypeView) }),
  );

  app.post(
    '/node/tier-type',
    {
      config: { permission: 'manage_tiers', audit: 'tier_type.created' },
      schema: { tags, summary: 'Creates a tier type (name unique, case-insensitive)', body: TierTypeBody, response: { 201: Envelope(TierType), ...errorResponses(400, 401, 403, 409) } },
    },
    async (req, reply) => reply.status(201).send({ message: 'Tier type created', data: tierTypeView(await tiers.createType(actorOf(req), req.body)) }),
  );

  app.post(
    '/node/tier-type/:id/update',
    {
      config: { permission: 'manage_tiers', audit: 'tier_type.updated' },
      schema: { tags, summary: 'Replaces a tier type', params: IdParams, body: TierTypeBody, response: { 200: Envelope(TierType), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Tier type updated', data: tierTypeView(await tiers.updateType(actorOf(req), req.params.id, req.body)) }),
  );

  app.get(
    '/tier/tiers',
    {
      config: { permission: 'view_tiers' },
      schema: { tags, summary: 'All tiers (retired ones with include_retired=true)', querystring: TierListQuery, response: { 200: Envelope(Type.Array(Tier)), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const rows = await tiers.list({ includeRetired: req.query.include_retired === true });
      return { message: 'OK', data: await Promise.all(rows.map(view)) };
    },
  );

  app.post(
    '/tier/create',
    {
      config: { permission: 'manage_tiers', audit: 'tier.created' },
      schema: {
        tags,
        summary: 'Creates a tier; it is offered once it has a price (POST /pricing/update-tier)',
        body: CreateTierBody,
        response: { 201: Envelope(Tier), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Tier created', data: await view(await tiers.create(actorOf(req), req.body)) }),
  );

  const write = (path: string, audit: string, summary: string, body: 'cpu' | 'lb' | null, run: (id: number, body: any, req: any) => Promise<TierRow>) =>
    app.patch(
      path,
      {
        config: { permission: 'manage_tiers', audit },
        schema: {
          tags,
          summary,
          params: IdParams,
          ...(body === 'cpu' ? { body: UpdateCpuBody } : body === 'lb' ? { body: UpdateLoadbalanceBody } : {}),
          response: { 200: Envelope(Tier), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => ({ message: 'Tier updated', data: await view(await run((req.params as { id: number }).id, req.body, req)) }),
    );

  write('/tier/:id/update-cpu', 'tier.cpu_limit_updated', 'Sets the CPU limit (percent of the vCPUs)', 'cpu', (id, body, req) => tiers.updateCpu(actorOf(req), id, body.cpu_limit));
  write('/tier/:id/toggle-status', 'tier.status_toggled', 'Shows or hides the tier for new VMs (running VMs keep renewing)', null, (id, _b, req) => tiers.toggleStatus(actorOf(req), id));
  write('/tier/:id/toggle-loadbalance', 'tier.loadbalance_toggled', 'Switches the load-balancer capability', null, (id, _b, req) => tiers.toggleLoadbalance(actorOf(req), id));
  write('/tier/:id/update-loadbalance', 'tier.loadbalance_updated', 'Sets what a load balancer on the tier may do', 'lb', (id, body, req) =>
    tiers.updateLoadbalance(actorOf(req), id, body.loadbalance_config),
  );

  app.delete(
    '/tier/:id/delete',
    {
      config: { permission: 'manage_tiers', audit: 'tier.deleted' },
      schema: { tags, summary: 'Retires the tier: no new VMs; running VMs and price history stay', params: IdParams, response: { 200: Envelope(Tier), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'Tier retired', data: await view(await tiers.retire(actorOf(req), req.params.id)) }),
  );
};

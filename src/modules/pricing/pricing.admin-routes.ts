import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import {
  Component,
  IdParams,
  LocationParams,
  PriceChangeImpact,
  PricePreviewQuery,
  PriceRow,
  PriceSchedule,
  ScheduleImpact,
  ScheduleListQuery,
  TierParams,
  UpdateLocationPriceBody,
  UpdateStorageTierPriceBody,
  UpdateTierPriceBody,
} from './pricing.schemas.js';
import { componentView, previewView, priceInForceView, scheduleImpactView, scheduleView } from './pricing.present.js';
import type { PricingService } from './pricing.service.js';

const tags = ['Backoffice: pricing'];

/** /api/backoffice/component/... and /api/backoffice/pricing/... (docs/api.md, "Catalog, prices and compute"). */
export const pricingAdminRoutes: FastifyPluginAsyncTypebox<{ pricing: PricingService }> = async (app, { pricing }) => {
  app.get(
    '/component/components',
    { config: { permission: 'view_pricing' }, schema: { tags, summary: 'Priced components', response: { 200: Envelope(Type.Array(Component)), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: (await pricing.components()).map(componentView) }),
  );

  app.get(
    '/pricing/location/:location_id',
    {
      config: { permission: 'view_pricing' },
      schema: { tags, summary: 'Component prices in force now in a location', params: LocationParams, response: { 200: Envelope(Type.Array(PriceRow)), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: (await pricing.locationPrices(req.params.location_id)).map(priceInForceView) }),
  );

  app.get(
    '/pricing/tiers/:tier_id',
    {
      config: { permission: 'view_pricing' },
      schema: { tags, summary: "The tier's own prices in force now in each location: its package (vm_tier) and each component it prices itself", params: TierParams, response: { 200: Envelope(Type.Array(PriceRow)), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: (await pricing.tierPrices(req.params.tier_id)).map(priceInForceView) }),
  );

  app.get(
    '/pricing/storage-tiers',
    {
      config: { permission: 'view_pricing' },
      schema: { tags, summary: 'Block storage tier prices (per GB-month) in force now', response: { 200: Envelope(Type.Array(PriceRow)), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: (await pricing.storageTierPrices()).map(priceInForceView) }),
  );

  const created = { 201: Envelope(PriceSchedule), ...errorResponses(400, 401, 403, 409) };
  app.post(
    '/pricing/update-loc',
    {
      config: { permission: 'manage_pricing', audit: 'price_schedule.created' },
      schema: { tags, summary: "Schedules a component's price in a location", body: UpdateLocationPriceBody, response: created },
    },
    async (req, reply) => reply.status(201).send({ message: 'Price change scheduled', data: scheduleView(await pricing.scheduleComponent(actorOf(req), req.body)) }),
  );

  app.post(
    '/pricing/update-tier',
    {
      config: { permission: 'manage_pricing', audit: 'price_schedule.created' },
      schema: {
        tags,
        summary: "Schedules a tier's own price of a component (default: its package), wherever the tier is offered or in one location",
        description:
          "Without location_id the price applies wherever the tier is offered: its own location for a tier bound to one, else every active location when the change applies (the schedule answers location_id null); location_id narrows it to one location. Without component_id, or with the vm_tier component, the tier's package price (key tier:<id>); with any other component, the tier's own price of it (key tier:<id>:component:<id>), which takes precedence over the location's price of that component for the VMs on the tier.",
        body: UpdateTierPriceBody,
        response: created,
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Price change scheduled', data: scheduleView(await pricing.scheduleTier(actorOf(req), req.body)) }),
  );

  app.post(
    '/pricing/update-storage-tier',
    {
      config: { permission: 'manage_pricing', audit: 'price_schedule.created' },
      schema: { tags, summary: "Schedules a block storage tier's price per GB-month in a location", body: UpdateStorageTierPriceBody, response: created },
    },
    async (req, reply) => reply.status(201).send({ message: 'Price change scheduled', data: scheduleView(await pricing.scheduleStorageTier(actorOf(req), req.body)) }),
  );

  app.get(
    '/pricing/preview',
    {
      config: { permission: 'view_pricing' },
      schema: {
        tags,
        summary: 'Revenue impact of a price change before it is scheduled (nothing is saved)',
        description:
          'The item is named as for the schedule routes: `location_id` + `component_id` (update-loc), `tier_id` with an optional `location_id` (update-tier), or `storage_tier_id` + `location_id` (update-storage-tier). The same checks apply: a known item and location, a price with at most 2 decimals, an `effective_date` (default now) not in the past.',
        querystring: PricePreviewQuery,
        response: { 200: Envelope(PriceChangeImpact), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'OK', data: await pricing.preview(req.query).then((p) => previewView(p.impact, p.effective)) }),
  );

  app.get(
    '/pricing/schedule',
    {
      config: { permission: 'view_pricing' },
      schema: {
        tags,
        summary: 'Price schedules by effective date (default: the waiting ones)',
        querystring: ScheduleListQuery,
        response: { 200: Envelope(Type.Array(PriceSchedule)), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'OK', data: (await pricing.listSchedules(req.query.status ?? 'waiting')).map(scheduleView) }),
  );

  app.get(
    '/pricing/schedule/:id',
    { config: { permission: 'view_pricing' }, schema: { tags, summary: 'One price schedule', params: IdParams, response: { 200: Envelope(PriceSchedule), ...errorResponses(401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: scheduleView(await pricing.schedule(req.params.id)) }),
  );

  app.get(
    '/pricing/schedule/:id/impact',
    {
      config: { permission: 'view_pricing' },
      schema: { tags, summary: 'Revenue impact of a price change: resources touched, monthly revenue before and after', params: IdParams, response: { 200: Envelope(ScheduleImpact), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: await pricing.impact(req.params.id).then((i) => scheduleImpactView(i.schedule, i.impact)) }),
  );

  app.delete(
    '/pricing/cancel/:id',
    {
      config: { permission: 'manage_pricing', audit: 'price_schedule.cancelled' },
      schema: {
        tags,
        summary: 'Cancels a waiting price change before its date (400 once the date has passed)',
        params: IdParams,
        response: { 200: Envelope(PriceSchedule), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Price change cancelled', data: scheduleView(await pricing.cancel(actorOf(req), req.params.id)) }),
  );
};

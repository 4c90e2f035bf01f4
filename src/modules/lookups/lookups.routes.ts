import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import {
  AppColors,
  City,
  CityQuery,
  Country,
  District,
  DistrictQuery,
  Location,
  PasswordRules,
  Province,
  ProvinceQuery,
  TermsLink,
} from './lookups.schemas.js';
import type { LookupsService } from './lookups.service.js';

const tags = ['Lookups'];
/** Reference data changes rarely; let browsers and proxies keep it for an hour. */
const CACHE_LONG = 'public, max-age=3600';
/** Settings-backed values can change from the backoffice; keep them for a minute. */
const CACHE_SHORT = 'public, max-age=60';

export const lookupsRoutes: FastifyPluginAsyncTypebox<{ lookups: LookupsService }> = async (app, { lookups }) => {
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 200 && !reply.hasHeader('cache-control')) {
      const short = /\/(tnc|app-colors|locations)$/.test(request.routeOptions.url ?? '');
      reply.header('cache-control', short ? CACHE_SHORT : CACHE_LONG);
    }
  });

  app.get('/country', { schema: { tags, summary: 'All countries (ISO 3166-1)', response: { 200: Envelope(Type.Array(Country)) } } }, async () => ({
    message: 'OK',
    data: await lookups.countries(),
  }));

  app.get(
    '/province',
    { schema: { tags, summary: 'Provinces, optionally of one country', querystring: ProvinceQuery, response: { 200: Envelope(Type.Array(Province)), ...errorResponses(400) } } },
    async (req) => ({ message: 'OK', data: await lookups.provinces(req.query.country_id) }),
  );

  app.get(
    '/city',
    { schema: { tags, summary: 'Cities and regencies of a province', querystring: CityQuery, response: { 200: Envelope(Type.Array(City)), ...errorResponses(400) } } },
    async (req) => ({ message: 'OK', data: await lookups.cities(req.query.province_id) }),
  );

  app.get(
    '/district',
    { schema: { tags, summary: 'Districts of a city', querystring: DistrictQuery, response: { 200: Envelope(Type.Array(District)), ...errorResponses(400) } } },
    async (req) => ({ message: 'OK', data: await lookups.districts(req.query.city_id) }),
  );

  app.get('/locations', { schema: { tags, summary: 'Datacenter locations', response: { 200: Envelope(Type.Array(Location)) } } }, async () => ({
    message: 'OK',
    data: await lookups.locations(),
  }));

  app.get('/password-rules', { schema: { tags, summary: 'The password rule enforced by the service', response: { 200: Envelope(PasswordRules) } } }, async () => ({
    message: 'OK',
    data: lookups.passwordRules(),
  }));

  app.get('/tnc', { schema: { tags, summary: 'Link to the terms and conditions', response: { 200: Envelope(TermsLink) } } }, async () => ({
    message: 'OK',
    data: await lookups.termsLink(),
  }));

  app.get('/app-colors', { schema: { tags, summary: 'Theme colors of the app and the e-mails', response: { 200: Envelope(AppColors) } } }, async () => ({
    message: 'OK',
    data: await lookups.appColors(),
  }));
};

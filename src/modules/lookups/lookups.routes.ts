import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { appColorsView, locationView, passwordRulesView, termsLinkView } from './lookups.present.js';

/** The cookie names of the two surfaces (auth.cookies.ts and the backoffice's): only their presence is read. */
const SessionHint = Type.Object({
  customer: Type.Boolean({ description: 'an access_token or refresh_token cookie came with the request' }),
});
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
    data: (await lookups.locations()).map(locationView),
  }));

  app.get('/password-rules', { schema: { tags, summary: 'The password rule enforced by the service', response: { 200: Envelope(PasswordRules) } } }, async () => ({
    message: 'OK',
    data: passwordRulesView(lookups.passwordRules()),
  }));

  app.get('/tnc', { schema: { tags, summary: 'Link to the terms and conditions', response: { 200: Envelope(TermsLink) } } }, async () => ({
    message: 'OK',
    data: termsLinkView(await lookups.appSettings()),
  }));

  app.get('/app-colors', { schema: { tags, summary: 'Theme colors of the app and the e-mails', response: { 200: Envelope(AppColors) } } }, async () => ({
    message: 'OK',
    data: appColorsView(await lookups.appSettings()),
  }));

  app.get(
    '/session-hint',
    {
      schema: {
        tags,
        summary: 'Whether this browser holds session cookies (says nothing of their validity)',
        description:
          'A browser page asks this before any authenticated call: false means there is certainly no session, so the page goes to its login screen without a 401. true means the cookies are there; whether they still work is known from the next call. Always 200.',
        response: { 200: Envelope(SessionHint) },
      },
    },
    async (req, reply) => {
      // about this browser's cookies: never kept by a cache, or a login would not show
      reply.header('cache-control', 'no-store');
      return {
      message: 'OK',
      data: {
        customer: Boolean(req.cookies.access_token || req.cookies.refresh_token),
      },
      };
    },
  );
};

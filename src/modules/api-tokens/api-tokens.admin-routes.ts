import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../audit/index.js';
import { Type } from 'typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, IntId, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { tokenView } from './api-tokens.present.js';
import { ApiToken, CustomerTokenParams } from './api-tokens.schemas.js';
import type { ApiTokensService } from './api-tokens.service.js';

const tags = ['Backoffice: customers'];

/** Mounted at /api/backoffice: a customer's tokens, for support (list without secrets, revoke). */
export const apiTokensAdminRoutes: FastifyPluginAsyncTypebox<{ tokens: ApiTokensService }> = async (app, { tokens }) => {
  const view = tokenView(tokens);

  app.get(
    '/customer/:id/api-tokens',
    {
      config: { permission: 'view_users' },
      schema: { tags, summary: "A customer's API tokens, newest first (no secrets)", params: Type.Object({ id: IntId }), querystring: PageQuery, response: { 200: Paginated(ApiToken), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await tokens.list(req.params.id, p);
      return paginated('OK', p, { items: page.items.map(view), total: page.total });
    },
  );

  app.delete(
    '/customer/:id/api-tokens/:token_id',
    {
      config: { permission: 'manage_sessions', audit: 'api_token.revoked' },
      schema: { tags, summary: "Revokes one of a customer's API tokens: its next request answers 401", params: CustomerTokenParams, response: { 200: Envelope(ApiToken), ...errorResponses(400, 401, 403, 404) } },
    },
    async (req) => ({ message: 'Token revoked', data: view(await tokens.revoke(actorOf(req), req.params.id, req.params.token_id)) }),
  );
};

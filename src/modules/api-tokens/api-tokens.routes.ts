import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { personalOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { ApiToken, CreatedToken, CreateTokenBody, RenameTokenBody, RevokedTokens, TokenParams } from './api-tokens.schemas.js';
import type { ApiTokensService } from './api-tokens.service.js';
import { Type } from 'typebox';
import { tokenView } from './api-tokens.present.js';

const tags = ['API tokens'];
const SudoHeaders = Type.Object({ 'x-access-token': Type.Optional(Type.String({ description: 'sudo token from POST /api/auth/profile/sudo' })) });

/** The sudo check of the auth module: a 403 SUDO_REQUIRED unless the token was issued to this session in the last 5 minutes. */
export interface SudoCheck {
  requireSudo(customerId: number, sessionId: string, token: string | undefined): void;
}

/** /api/tokens: personal access tokens. Reachable with the session cookie only, never with a token. */
export const apiTokensRoutes: FastifyPluginAsyncTypebox<{ tokens: ApiTokensService; sudo: SudoCheck }> = async (app, { tokens, sudo }) => {
  const view = tokenView(tokens);
  const sudoCaller = (req: FastifyRequest) => {
    const me = personalOf(req);
    const header = req.headers['x-access-token'];
    sudo.requireSudo(me.customerId, me.sessionId, typeof header === 'string' ? header : undefined);
    return me;
  };

  app.post(
    '',
    {
      config: { activity: 'api_token.created' },
      schema: {
        tags,
        summary: 'Creates a token (needs X-Access-Token from sudo); the secret is in this answer only',
        headers: SudoHeaders,
        body: CreateTokenBody,
        response: { 201: Envelope(CreatedToken), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const me = sudoCaller(req);
      const { token, secret } = await tokens.create(me.customerId, req.body, me.accountId);
      return reply.status(201).send({ message: 'Token created: copy it now, it is not shown again', data: { ...view(token), token: secret } });
    },
  );

  app.get('', { schema: { tags, summary: 'My tokens, newest first (no secrets)', querystring: PageQuery, response: { 200: Paginated(ApiToken), ...errorResponses(400, 401) } } }, async (req) => {
    const p = pageOf(req.query);
    const page = await tokens.list(personalOf(req).customerId, p);
    return paginated('OK', p, { items: page.items.map(view), total: page.total });
  });

  app.patch(
    '/:id',
    { config: { activity: 'api_token.renamed' }, schema: { tags, summary: 'Renames a token', params: TokenParams, body: RenameTokenBody, response: { 200: Envelope(ApiToken), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'Token renamed', data: view(await tokens.rename(personalOf(req).customerId, req.params.id, req.body.name)) }),
  );

  app.delete(
    '/:id',
    { config: { activity: 'api_token.revoked' }, schema: { tags, summary: 'Revokes a token: its next request answers 401', params: TokenParams, response: { 200: Envelope(ApiToken), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'Token revoked', data: view(await tokens.revoke('customer', personalOf(req).customerId, req.params.id)) }),
  );

  app.post(
    '/revoke-all',
    {
      config: { activity: 'api_token.revoked_all' },
      schema: {
        tags,
        summary: 'Revokes every active token at once (after a password change, or when a token may have leaked): their next requests answer 401',
        response: { 200: Envelope(RevokedTokens), ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ message: 'Every token revoked', data: await tokens.revokeAll(personalOf(req).customerId) }),
  );
};

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ForbiddenError, RateLimitedError, UnauthenticatedError } from '../../platform/errors.js';
import type { CustomerAuthenticator, CustomerPrincipal } from '../../platform/http/auth.js';
import type { ApiTokensService, TokenRequestLimits } from './api-tokens.service.js';
import { scopesCover, tokenAccessOf } from './token-scopes.js';
import { hashTokenSecret, isWellFormedToken } from './token-secret.js';

/** The shared counters of the rate limits (platform/rate-limit's PostgresRateLimits). */
export interface RateCounters {
  hitAll(keys: readonly string[], windowMs: number): Promise<Map<string, { current: number; ttl: number }>>;
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The customer surface's authenticator: `Authorization: Bearer <token>` when the request has one,
 * the session cookie otherwise. A token request is counted against the token's and the client
 * address's per-minute limits (429 past either), then authenticated (401 for an unknown, revoked or
 * expired token), then checked against the route's entry in the scope table: a route tokens may
 * never use, or one outside the token's scopes, answers 403 naming the missing scope.
 */
export class BearerOrCookieAuthenticator implements CustomerAuthenticator {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly cookies: CustomerAuthenticator,
    private readonly limits: { counters: RateCounters; perTokenPerMin: number; perIpPerMin: number },
  ) {}

  async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<CustomerPrincipal> {
    const header = request.headers.authorization;
    if (header === undefined) return this.cookies.authenticate(request, reply);
    const secret = BEARER.exec(header)?.[1];
    if (!secret) throw new UnauthenticatedError('Authorization must be "Bearer <API token>"');
    if (!isWellFormedToken(secret)) {
      await this.countAddress(request.ip);
      throw new UnauthenticatedError('Invalid API token');
    }
    const token = await this.tokens.authenticate(secret, request.ip, this.limitsFor(secret, request.ip), request.routeOptions.config.authRider?.());
    const access = tokenAccessOf(request.method === 'HEAD' ? 'GET' : request.method, request.routeOptions.url ?? '');
    if (!access?.reachable) throw new ForbiddenError('API tokens cannot use this route: it needs a signed-in session', 'TOKEN_NOT_ALLOWED');
    if (!scopesCover(token.scopes, access.scope)) {
      throw new AppError(403, 'INSUFFICIENT_SCOPE', `This API token lacks the ${access.scope} scope`, [{ field: 'scope', message: access.scope }]);
    }
    if (token.rider !== undefined) request.authRider = token.rider;
    return {
      kind: 'customer',
      customerId: token.accountId,
      personId: token.customerId,
      role: token.role,
      ...(token.accountId !== token.customerId && token.twoFactorMissing ? { accountBlock: 'TWO_FACTOR_REQUIRED' as const } : {}),
      sessionId: `token:${token.tokenId}`,
      apiTokenId: token.tokenId,
      scopes: token.scopes,
    };
  }

  /**
   * The token's and the client address's per-minute limits, counted while the token is read. A
   * text whose checksum fails cannot be a token: it is refused without that read, and only its
   * address is counted, so a flood of made-up tokens writes no counter row per guess.
   */
  private limitsFor(secret: string | null, ip: string): TokenRequestLimits {
    const maxOf = new Map<string, number>([[`api-token-ip:${ip}`, this.limits.perIpPerMin]]);
    if (secret !== null) maxOf.set(`api-token:${hashTokenSecret(secret)}`, this.limits.perTokenPerMin);
    return {
      count: async () => {
        const hits = await this.limits.counters.hitAll([...maxOf.keys()], 60_000);
        for (const [key, max] of maxOf) {
          const h = hits.get(key);
          if (h && h.current > max) throw new RateLimitedError(h.ttl / 1000, 'Too many requests with API tokens, try again later');
        }
      },
    };
  }

  private countAddress(ip: string): Promise<void> {
    return this.limitsFor(null, ip).count();
  }
}

/**
 * On the customer surface: start-up fails for a signed-in route that the scope table neither maps
 * nor lists as unreachable, and the OpenAPI document says, per operation, which scope a token needs.
 */
export function requireTokenScopes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (route.config?.public) return;
    for (const method of [route.method].flat().map(String)) {
      if (method === 'HEAD') continue;
      const access = tokenAccessOf(method, route.url);
      if (!access) throw new Error(`customer route ${method} ${route.url} has no entry in src/modules/api-tokens/token-scopes.ts (a scope, or null: unreachable with a token)`);
      const schema = (route.schema ??= {}) as Record<string, any>;
      if (!access.reachable) {
        schema.description = [schema.description, 'Not available to API tokens.'].filter(Boolean).join('\n\n');
        continue;
      }
      schema.security = [...(schema.security ?? [{ customerCookie: [] }]), { apiToken: [access.scope] }];
      schema.description = [schema.description, `API tokens: needs the \`${access.scope}\` scope.`].filter(Boolean).join('\n\n');
    }
  });
}

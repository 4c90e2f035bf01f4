import type { CustomerAuthenticator } from '../../platform/http/auth.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import { apiTokensAdminRoutes } from './api-tokens.admin-routes.js';
import { ApiTokensRepository } from './api-tokens.repository.js';
import { apiTokensRoutes, type SudoCheck } from './api-tokens.routes.js';
import { ApiTokensService } from './api-tokens.service.js';
import { BearerOrCookieAuthenticator } from './bearer-authenticator.js';

export interface ApiTokensDeps {
  audit: AuditService;
  /** the session cookie's authenticator, asked when a request carries no bearer token */
  cookieAuthenticator: CustomerAuthenticator;
  /** re-authentication before a token is made (the auth module's second factor) */
  sudo: SudoCheck;
}

/** Personal access tokens, and the customer surface's authenticator (a bearer token or the session cookie). */
export function createApiTokensModule(p: Platform, deps: ApiTokensDeps) {
  const { config } = p;
  const apiTokens = new ApiTokensService(p.db, new ApiTokensRepository(), deps.audit, p.clock, p.mailer, config.frontendUrl && `${config.frontendUrl}/account`);
  const customerAuthenticator = new BearerOrCookieAuthenticator(apiTokens, deps.cookieAuthenticator, {
    counters: p.rateLimits,
    perTokenPerMin: config.apiTokenRateLimitPerMin,
    perIpPerMin: config.apiTokenIpRateLimitPerMin,
  });
  return {
    services: { apiTokens, customerAuthenticator },
    jobs: [apiTokens.pruneJob],
    routes: [mount('backoffice', apiTokensAdminRoutes, { tokens: apiTokens }), mount('customer', apiTokensRoutes, { prefix: '/api/tokens', tokens: apiTokens, sudo: deps.sudo })],
  } satisfies BuiltModule;
}

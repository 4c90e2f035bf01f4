export { ApiTokensService, DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, LAST_USED_INTERVAL_MS, type TokenPrincipal } from './api-tokens.service.js';
export { ApiTokensRepository } from './api-tokens.repository.js';
export { apiTokensRoutes, type SudoCheck } from './api-tokens.routes.js';
export { apiTokensAdminRoutes } from './api-tokens.admin-routes.js';
export { tokenAccessOf, scopesCover, ALL_SCOPES, SCOPE_FAMILIES, TOKEN_ROUTE_SCOPES, TOKEN_UNREACHABLE_PREFIXES, type RequiredScope, type TokenScope } from './token-scopes.js';
export { isWellFormedToken, TOKEN_PATTERN, TOKEN_PREFIX } from './token-secret.js';
export { BearerOrCookieAuthenticator, requireTokenScopes, type RateCounters } from './bearer-authenticator.js';
export { createApiTokensModule } from './api-tokens.module.js';

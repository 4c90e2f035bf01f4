import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAuthenticator, AdminPrincipal } from '../../platform/http/auth.js';
import type { AdminAuthService } from './admin-auth.service.js';

export const BO_ACCESS_COOKIE = 'bo_access_token';
export const BO_REFRESH_COOKIE = 'bo_refresh_token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Backoffice: reachable by an admin who still has to change a generated password. */
    allowPendingPasswordChange?: boolean;
    /** Backoffice: reachable by an admin who must turn on 2FA first (the enrolment routes). */
    allowPendingTwoFactor?: boolean;
  }
}

/** Reads the bo_access_token cookie; the backoffice surface calls this before every non-public route. */
export class CookieAdminAuthenticator implements AdminAuthenticator {
  constructor(private readonly auth: AdminAuthService) {}

  authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<AdminPrincipal> {
    return this.auth.authenticate(request.cookies[BO_ACCESS_COOKIE], {
      allowPendingPasswordChange: request.routeOptions.config.allowPendingPasswordChange === true,
      allowPendingTwoFactor: request.routeOptions.config.allowPendingTwoFactor === true,
    });
  }
}

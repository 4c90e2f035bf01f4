import type { FastifyRequest } from 'fastify';
import type { CustomerAuthenticator, CustomerPrincipal } from '../../platform/http/auth.js';
import { CookieName } from './auth.cookies.js';
import type { SessionService } from './sessions.service.js';

/** The customer surface's authenticator: the access_token cookie and a live device session. */
export class CookieCustomerAuthenticator implements CustomerAuthenticator {
  constructor(private readonly sessions: SessionService) {}

  async authenticate(request: FastifyRequest): Promise<CustomerPrincipal> {
    const { rider, ...principal } = await this.sessions.authenticate(request.cookies[CookieName.access], request.routeOptions.config.authRider?.());
    if (rider !== undefined) request.authRider = rider;
    return principal;
  }
}

import type { FastifyRequest } from 'fastify';
import type { CustomerAuthenticator, CustomerPrincipal } from '../../platform/http/auth.js';
import { CookieName } from './auth.cookies.js';
import type { SessionService } from './sessions.service.js';

/** The customer surface's authenticator: the access_token cookie and a live device session. */
export class CookieCustomerAuthenticator implements CustomerAuthenticator {
  constructor(private readonly sessions: SessionService) {}

  authenticate(request: FastifyRequest): Promise<CustomerPrincipal> {
    return this.sessions.authenticate(request.cookies[CookieName.access]);
  }
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RiderRead } from '../db/prepared.js';

/** Who is calling. Set by the surface's authentication hook before any handler runs. */
export interface CustomerPrincipal {
  kind: 'customer';
  /**
   * The account acted on: whose wallet, resources and limits the request reaches. A person acts on
   * their own account (then it is their own id) or on a team account they are a member of.
   */
  customerId: number;
  /** The person signed in (their own customers row); their own routes (password, 2FA, sessions, tokens) use this. */
  personId?: number;
  /** The person's role in the account acted on ('owner' in their own account). */
  role?: string;
  /** Why the account refuses the person everything but their own routes: switched off by staff, or 2FA required of members. */
  accountBlock?: 'ACCOUNT_DISABLED' | 'TWO_FACTOR_REQUIRED' | 'ACCOUNT_CLOSED' | 'NOT_A_MEMBER';
  /** device session id (the JWT's `sid`), or `token:<id>` for a request made with an API token */
  sessionId: string;
  /** set when the request carries an API token (Authorization: Bearer) instead of the session cookie */
  apiTokenId?: number;
  /** set when an admin impersonates the customer; every action is then audited */
  impersonatorAdminId?: number;
  /** the scopes of the API token the request carries (absent for a session) */
  scopes?: readonly string[];
  /**
   * Whether the caller's role in the account acted on (and, with a token, its scopes) allows a
   * permission such as 'billing:read': set by the members surface before any handler, so an answer
   * can leave out what the caller may not see (GET /api/inf without money for a technical member).
   */
  may?: (permission: string) => boolean;
}

export interface AdminPrincipal {
  kind: 'admin';
  adminId: number;
  sessionId: string;
  role: string;
  permissions: readonly string[];
}

/**
 * The two authenticators: the identity modules implement them, app.ts installs them on their
 * surfaces. Each throws UnauthenticatedError (401) when there is no live session.
 */
export interface CustomerAuthenticator {
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<CustomerPrincipal>;
}

export interface AdminAuthenticator {
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<AdminPrincipal>;
}

declare module 'fastify' {
  interface FastifyRequest {
    customer?: CustomerPrincipal;
    admin?: AdminPrincipal;
    /** The row of the route's `authRider`, read with the session or the API token (riderOf). */
    authRider?: unknown;
  }
  interface FastifyContextConfig {
    /** Backoffice: the one permission the route needs; 'public' for the login routes. */
    permission?: string;
    /**
     * Backoffice writes (POST/PUT/PATCH/DELETE) other than the public login routes: the audit
     * action recorded when the service records nothing richer, e.g. 'coupon.created'.
     */
    audit?: string;
    /** Customer surface: the route is reachable without a session (login, register, ...). */
    public?: boolean;
    /** Customer surface, public routes: a live session is attached when the access cookie names one (logout). */
    optionalSession?: boolean;
    /** Customer surface: the route stays open in maintenance mode. */
    allowInMaintenance?: boolean;
    /**
     * Customer surface, signed-in writes: the activity action recorded in the transaction of the
     * change (e.g. 'vm.deleted'), or false for a write that is no account activity (marking
     * notifications read). Start-up fails on a write that declares neither this nor a
     * securityEvent (platform/http/activity.ts).
     */
    activity?: string | false;
    /**
     * Customer surface, signed-in reads whose answer is one read of the caller's own rows: that
     * read, run in the statement that authenticates the request (platform/db/prepared.ts, RiderRead).
     */
    authRider?: () => RiderRead<unknown> | undefined;
  }
}

/** The route's `authRider` row, when the authentication read it (else the route reads it itself). */
export function riderOf<R>(request: FastifyRequest, _rider: () => RiderRead<R> | undefined): R | undefined {
  return request.authRider as R | undefined;
}

/** The authenticated customer; only call in routes of the customer surface that are not public. */
export function customerOf(request: FastifyRequest): CustomerPrincipal {
  if (!request.customer) throw new Error('customer route without authentication');
  return request.customer;
}

/** The person signed in (not the account acted on): for their own sign-in, 2FA, sessions and tokens. */
export function personOf(request: FastifyRequest): number {
  const c = customerOf(request);
  return c.personId ?? c.customerId;
}

/**
 * The caller of the person's own routes (auth, tokens): `customerId` is the person signed in and
 * `accountId` the account the request acts on.
 */
export function personalOf(request: FastifyRequest): CustomerPrincipal & { accountId: number } {
  const c = customerOf(request);
  return { ...c, customerId: c.personId ?? c.customerId, accountId: c.customerId };
}

export function adminOf(request: FastifyRequest): AdminPrincipal {
  if (!request.admin) throw new Error('backoffice route without authentication');
  return request.admin;
}

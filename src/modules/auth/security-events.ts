import type { FastifyInstance } from 'fastify';
import { currentAuditOrigin, newAuditScope, runInAuditScope, surfaceEntryDue, type AuditKind } from '../../platform/audit-scope.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Actor, AuditService } from '../audit/index.js';

/** The customer security events of the audit log (docs/decisions.md §3): one catalog, recorded by the auth services. */
export const SecurityAction = {
  login: 'customer.login',
  loginFailed: 'customer.login_failed',
  /** the password was right; the second factor is awaited */
  loginChallenged: 'customer.login_2fa_challenged',
  logout: 'customer.logout',
  sessionRevoked: 'customer.session_revoked',
  sudoGranted: 'customer.sudo_granted',
  reauthFailed: 'customer.reauthentication_failed',
  twoFactorEnabled: 'customer.2fa_enabled',
  twoFactorDisabled: 'customer.2fa_disabled',
  recoveryCodesRegenerated: 'customer.recovery_codes_regenerated',
  passwordChanged: 'customer.password_changed',
  passwordReset: 'customer.password_reset',
  emailChangeRequested: 'customer.email_change_requested',
  emailChanged: 'customer.email_changed',
  registered: 'customer.registered',
  emailVerified: 'customer.email_verified',
} as const;
export type SecurityAction = (typeof SecurityAction)[keyof typeof SecurityAction];
const KNOWN: ReadonlySet<string> = new Set(Object.values(SecurityAction));

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Customer auth routes: the security event a successful call records (the service records it,
     * with its details, in the transaction of the change), or false for a write that is none.
     */
    securityEvent?: SecurityAction | false;
  }
}

/**
 * Writes customer security events to the audit log. The actor's ip, user agent and impersonating
 * admin come from the request's audit scope ({@link enforceSecurityAudit}); a service passes them
 * itself only where it knows better (login).
 */
export class SecurityEvents {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  /**
   * Records on `ex` (the transaction of the change; the root database for a failed attempt), as
   * the service's own entry (`change`) unless `opts.kind` says it is the surface's back-up.
   */
  async record(
    ex: Executor | undefined,
    action: SecurityAction,
    customerId: number | null,
    details?: Record<string, unknown>,
    opts: { anonymous?: boolean; ip?: string | null; userAgent?: string | null; kind?: AuditKind } = {},
  ): Promise<void> {
    const origin = currentAuditOrigin();
    const ip = opts.ip ?? origin?.ip;
    const userAgent = opts.userAgent ?? origin?.userAgent;
    const actor: Actor = {
      type: opts.anonymous || customerId === null ? 'anonymous' : 'customer',
      id: opts.anonymous ? null : customerId,
      ...(origin?.impersonatorAdminId !== undefined ? { impersonatorAdminId: origin.impersonatorAdminId } : {}),
      ...(ip ? { ip } : {}),
      ...(userAgent ? { userAgent } : {}),
    };
    await this.audit.write(ex ?? this.db, { actor, action, targetType: 'customer', ...(customerId !== null ? { targetId: customerId } : {}), ...(details ? { after: details } : {}) }, opts.kind ?? 'change');
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one hook that keeps customer security events complete, installed on the auth routes and the
 * link pages: every write route must say which event it is (`config.securityEvent`, or false),
 * else start-up fails; each request runs in an audit scope that carries its origin to the
 * services; and a successful call of a signed-in route whose service recorded nothing still gets
 * its entry (with the session's customer), so a forgotten `record` cannot leave a gap. (On public
 * routes, login and the link steps, only the service knows whose account it was: a 2xx without an
 * entry there is a bug the tests catch.)
 */
export function enforceSecurityAudit(scope: FastifyInstance, events: SecurityEvents): void {
  scope.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map(String);
    const event = route.config?.securityEvent;
    if (methods.some((m) => WRITES.has(m)) && event === undefined) {
      throw new Error(`auth route ${methods.join(',')} ${route.url} declares no config.securityEvent`);
    }
    if (event !== undefined && event !== false && !KNOWN.has(event)) throw new Error(`auth route ${route.url} names an unknown security event ${event}`);
  });
  scope.addHook('preHandler', (request, _reply, done) => {
    const ua = request.headers['user-agent'];
    const imp = request.customer?.impersonatorAdminId;
    const auditScope = newAuditScope({ ip: request.ip, ...(ua ? { userAgent: ua } : {}), ...(imp !== undefined ? { impersonatorAdminId: imp } : {}) });
    request.auditScope = auditScope;
    runInAuditScope(auditScope, done);
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const event = request.routeOptions.config.securityEvent;
    if (!event || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    if (!surfaceEntryDue(request.auditScope) || !request.customer) return payload;
    try {
      const ua = request.headers['user-agent'];
      await events.record(undefined, event, request.customer.personId ?? request.customer.customerId, { route: request.routeOptions.url }, { ip: request.ip, userAgent: ua ?? null, kind: 'surface' });
    } catch (err) {
      request.log.error({ err, event }, 'could not audit a security event');
    }
    return payload;
  });
}

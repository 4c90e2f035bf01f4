import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/db/database.js';
import type { Actor, AuditService } from './audit.service.js';

/** The caller of a request as an audit actor (admin, customer or, before login, anonymous). */
export function actorOf(request: FastifyRequest): Actor {
  const where = { ip: request.ip, userAgent: request.headers['user-agent'] };
  if (request.admin) return { type: 'admin', id: request.admin.adminId, ...where };
  if (request.customer) {
    return {
      type: 'customer',
      id: request.customer.customerId,
      ...(request.customer.impersonatorAdminId !== undefined ? { impersonatorAdminId: request.customer.impersonatorAdminId } : {}),
      ...where,
    };
  }
  return { type: 'anonymous', id: null, ...where };
}

/**
 * Every request made in an impersonated customer session is recorded (method, route, status)
 * before the response leaves, so no answer reaches the impersonator unaudited: add to the
 * customer surface's scope.
 */
export function auditImpersonatedRequests(scope: FastifyInstance, audit: AuditService, db: Database): void {
  scope.addHook('onSend', (request, reply, payload, done) => {
    const customer = request.customer;
    if (!customer?.impersonatorAdminId) return done(null, payload);
    audit
      .record(db, {
        actor: actorOf(request),
        action: 'impersonation.request',
        targetType: 'customer',
        targetId: customer.customerId,
        after: { method: request.method, route: request.routeOptions.url ?? request.url.split('?')[0], status: reply.statusCode, session_id: customer.sessionId },
      })
      .catch((err: unknown) => request.log.error({ err }, 'could not audit an impersonated request'))
      .finally(() => done(null, payload));
  });
}

import type { FastifyRequest } from 'fastify';
import type { AuditKind } from './audit-scope.js';

/** Who did something, from where. Built from the request by {@link actorOf}. */
export interface Actor {
  type: 'admin' | 'customer' | 'system' | 'anonymous';
  id: number | null;
  /** the admin behind an impersonated customer session */
  impersonatorAdminId?: number;
  /** for a customer actor (the account acted on): the member who acted, when not the account holder */
  memberId?: number;
  ip?: string;
  userAgent?: string;
}

export interface AuditEntry {
  actor: Actor;
  /** dotted verb, e.g. admin.login, admin.role_changed, settings.updated */
  action: string;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null };

/**
 * The one writer of the audit log. Services (through AuditService.record), SecurityEvents, the
 * backoffice and customer surfaces and the impersonation trail all write through `write`, each
 * naming the kind of its entry; which kinds stand for a request's change, and so when a surface
 * writes its own entry, is decided in one place (`surfaceEntryDue`, platform/audit-scope.ts).
 * `ex` is the transaction of the change the entry describes, or undefined for the ambient
 * database (a transaction open in this context, else the root database).
 */
export interface AuditLog {
  write(ex: unknown, entry: AuditEntry, kind: AuditKind): Promise<void>;
}

/** The caller of a request as an audit actor (admin, customer or, before login, anonymous). */
export function actorOf(request: FastifyRequest): Actor {
  const where = { ip: request.ip, userAgent: request.headers['user-agent'] };
  if (request.admin) return { type: 'admin', id: request.admin.adminId, ...where };
  if (request.customer) {
    return {
      type: 'customer',
      id: request.customer.customerId,
      ...(request.customer.personId !== undefined && request.customer.personId !== request.customer.customerId ? { memberId: request.customer.personId } : {}),
      ...(request.customer.impersonatorAdminId !== undefined ? { impersonatorAdminId: request.customer.impersonatorAdminId } : {}),
      ...where,
    };
  }
  return { type: 'anonymous', id: null, ...where };
}

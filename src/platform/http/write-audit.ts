import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, type AuditLog } from '../audit-log.js';
import { newAuditScope, runInAuditScope, surfaceEntryDue, type AuditScope } from '../audit-scope.js';

/** What the backoffice surface records for a successful write its service did not audit itself. */
export interface WriteAuditEntry {
  action: string;
  targetType: string;
  targetId?: string;
  after: unknown;
}

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** `area.verb`, e.g. coupon.created, billing.topup_minimum_changed */
export const AUDIT_ACTION = /^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_]*)+$/;

declare module 'fastify' {
  interface FastifyRequest {
    auditScope?: AuditScope;
  }
}

const SECRET_KEY = /pass(word)?|secret|token|otp|recovery|api_?key|signature|private/i;
const MAX_STORED = 16 * 1024;

/** A copy without secret-looking fields (passwords, tokens, keys), at most 4 levels deep. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1)]));
}

function dataOf(payload: unknown): unknown {
  if (typeof payload !== 'string') return undefined;
  try {
    return (JSON.parse(payload) as { data?: unknown }).data;
  } catch {
    return undefined;
  }
}

const ID_PARAMS = ['id', 'customer_id', 'role_name', 'name', 'sid', 'invoice_id'];

function describe(request: FastifyRequest, action: string, status: number, payload: unknown): WriteAuditEntry {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const data = dataOf(payload);
  const fromParams = ID_PARAMS.map((k) => params[k]).find((v) => v !== undefined);
  const fromData = data && typeof data === 'object' && 'id' in data ? (data as { id: unknown }).id : undefined;
  const targetId = fromParams ?? fromData;
  let after: unknown = redact({ request: `${request.method} ${request.routeOptions.url}`, status, params, body: request.body ?? null, result: data ?? null });
  if (JSON.stringify(after).length > MAX_STORED) after = { request: `${request.method} ${request.routeOptions.url}`, status, params: redact(params), note: 'body and result too large to keep' };
  return { action, targetType: action.split('.')[0]!, ...(targetId !== undefined ? { targetId: String(targetId) } : {}), after };
}

/**
 * The audit of backoffice writes, enforced by the surface: every successful POST/PUT/PATCH/DELETE
 * (2xx) ends with an audit entry. The handler runs in an audit scope; when its service wrote a
 * `change` entry (with its own before/after) nothing more is written, otherwise the route's
 * declared `config.audit` action is written as a `surface` entry with the request (secrets
 * redacted) and the answer's data (the rule: `surfaceEntryDue`, platform/audit-scope.ts). The
 * entry is written before the answer leaves; a failure to write it is logged.
 */
export function auditBackofficeWrites(scope: FastifyInstance, auditLog: AuditLog): void {
  // preHandler, callback style: the handler runs inside the scope (an onRequest scope would be
  // lost across body parsing, which continues in the request stream's own async context).
  scope.addHook('preHandler', (request, _reply, done) => {
    const auditScope = newAuditScope();
    request.auditScope = auditScope;
    runInAuditScope(auditScope, done);
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const action = request.routeOptions.config.audit;
    if (!action || !WRITE_METHODS.has(request.method) || !request.admin) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    if (!surfaceEntryDue(request.auditScope)) return payload;
    try {
      await auditLog.write(undefined, { actor: actorOf(request), ...describe(request, action, reply.statusCode, payload) }, 'surface');
    } catch (err) {
      request.log.error({ err, action }, 'could not audit a backoffice write');
    }
    return payload;
  });
}

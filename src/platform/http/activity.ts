import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, type AuditLog } from '../audit-log.js';
import { newAuditScope, runInAuditScope, type PendingActivity } from '../audit-scope.js';
import { AUDIT_ACTION, redact, WRITE_METHODS } from './write-audit.js';

/** What the customer surface records for one customer write (app.ts passes the audit service). */
export interface ActivityEntry {
  action: string;
  targetType: string;
  targetId?: string;
  after: unknown;
}

/**
 * Writes one activity entry for the request's customer on `ex` (a transaction, or the ambient
 * database when undefined); a write made with an API token names the token in its entry.
 */
function recordActivity(auditLog: AuditLog, request: FastifyRequest, entry: ActivityEntry, ex: unknown): Promise<void> {
  const token = request.customer?.apiTokenId;
  return auditLog.write(
    ex,
    { actor: actorOf(request), ...entry, ...(token !== undefined ? { after: { ...(entry.after as object), api_token_id: token } } : {}) },
    'activity',
  );
}

/** Path parameters that name what a write acts on, in the order they are looked for. */
const TARGET_PARAMS = ['id', 'uuid', 'accessKey', 'invoice_id'];
/** Longer strings (file contents, long messages) are kept as their length only. */
const MAX_STRING = 200;
const MAX_STORED = 16 * 1024;

function shorten(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `[${value.length} characters]` : value;
  if (value === null || typeof value !== 'object' || depth > 5) return value;
  if (Array.isArray(value)) return value.map((v) => shorten(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]));
}

function entryOf(request: FastifyRequest, action: string, targetId: string | undefined): ActivityEntry {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const fromParams = TARGET_PARAMS.map((k) => params[k]).find((v) => v !== undefined);
  const target = targetId ?? (fromParams === undefined ? undefined : String(fromParams));
  const route = `${request.method} ${request.routeOptions.url}`;
  let after: unknown = { route, params: redact(params), body: shorten(redact(request.body ?? null)) };
  if (JSON.stringify(after).length > MAX_STORED) after = { route, params: redact(params), note: 'body too large to keep' };
  return { action, targetType: action.split('.')[0]!, ...(target !== undefined ? { targetId: target } : {}), after };
}

/**
 * The customer activity log, enforced by the customer surface (one mechanism for every customer
 * write, like the backoffice's write audit):
 * - every signed-in POST/PUT/PATCH/DELETE route declares `config.activity` (an action such as
 *   'vm.deleted', or false) unless it is public or names a `securityEvent` (the auth routes, whose
 *   services record their own entries); start-up fails otherwise;
 * - the handler runs in an audit scope holding the pending entry; the ambient transaction writes
 *   it just before the first transaction the request commits, so the entry and the change commit
 *   or roll back together (a failed write leaves none; a write whose first transaction committed
 *   keeps it, even if a later step fails);
 * - the target is the id the service named (`noteActivityTarget`, for creates) or the path's id;
 * - an Idempotency-Key replay changes nothing and records nothing;
 * - a successful write that committed no transaction (its change, if any, was a single statement)
 *   gets its entry after the answer, outside any transaction, and a warning in the log.
 */
export function recordCustomerActivity(scope: FastifyInstance, auditLog: AuditLog): void {
  scope.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map(String);
    if (!methods.some((m) => WRITE_METHODS.has(m))) return;
    const config = route.config ?? {};
    if (config.public || config.securityEvent !== undefined) return;
    if (config.activity === undefined) throw new Error(`customer route ${methods.join(',')} ${route.url} declares no activity action (config.activity)`);
    if (config.activity !== false && !AUDIT_ACTION.test(config.activity)) throw new Error(`customer route ${route.url} has a malformed activity action ${config.activity}`);
  });
  // preHandler, callback style: the handler runs inside the scope (see write-audit.ts)
  scope.addHook('preHandler', (request, _reply, done) => {
    const action = request.routeOptions.config.activity;
    if (!action || !WRITE_METHODS.has(request.method) || !request.customer) return done();
    const activity: PendingActivity = {
      recorded: false,
      replay: false,
      write: (tx) => recordActivity(auditLog, request, entryOf(request, action, activity.targetId), tx),
    };
    const auditScope = newAuditScope();
    auditScope.activity = activity;
    request.auditScope = auditScope;
    runInAuditScope(auditScope, done);
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const activity = request.auditScope?.activity;
    if (!activity || activity.recorded || activity.replay) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const action = request.routeOptions.config.activity as string;
    request.log.warn({ action }, 'customer write committed no transaction: its activity entry is written after the change');
    try {
      activity.recorded = true;
      await recordActivity(auditLog, request, entryOf(request, action, activity.targetId), undefined);
    } catch (err) {
      request.log.error({ err, action }, 'could not record a customer activity');
    }
    return payload;
  });
}

/**
 * Every request made in an impersonated customer session is written to the audit log (method,
 * route, status) as a `trail` entry before the response leaves, so no answer reaches the
 * impersonator unaudited. A trail entry never stands for the request's change (`surfaceEntryDue`).
 */
export function recordImpersonatedRequests(scope: FastifyInstance, auditLog: AuditLog): void {
  scope.addHook('onSend', (request, reply, payload, done) => {
    const customer = request.customer;
    if (!customer?.impersonatorAdminId) return done(null, payload);
    auditLog
      .write(
        undefined,
        {
          actor: actorOf(request),
          action: 'impersonation.request',
          targetType: 'customer',
          targetId: customer.customerId,
          after: { method: request.method, route: request.routeOptions.url ?? request.url.split('?')[0], status: reply.statusCode, session_id: customer.sessionId },
        },
        'trail',
      )
      .catch((err: unknown) => request.log.error({ err }, 'could not audit an impersonated request'))
      .finally(() => done(null, payload));
  });
}

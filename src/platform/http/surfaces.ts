import type { FastifyInstance } from 'fastify';
import { ForbiddenError, MaintenanceError } from '../errors.js';
import type { AdminAuthenticator, CustomerAuthenticator } from './auth.js';
import type { AuditLog } from '../audit-log.js';
import { recordCustomerActivity, recordImpersonatedRequests } from './activity.js';
import { AUDIT_ACTION, auditBackofficeWrites, WRITE_METHODS } from './write-audit.js';

export interface RoutePermission {
  method: string;
  url: string;
  permission: string;
  /** the audit action of a write */
  audit?: string;
}

/**
 * Marks a route in the OpenAPI document as reachable without any credential (`security: []`),
 * so every operation says what it needs and tools do not assume a global default.
 */
function documentPublic(route: { schema?: Record<string, any> }): void {
  const schema = (route.schema ??= {});
  schema.security ??= [];
}

/** Marks a route in the OpenAPI document with its cookie and, for the backoffice, its permission. */
function documentSecurity(route: { schema?: Record<string, any> }, scheme: string, permission?: string): void {
  const schema = (route.schema ??= {});
  schema.security ??= [{ [scheme]: [] }];
  if (permission && permission !== 'authenticated') {
    // machine-readable too: the web console shows staff only what their permissions allow
    schema['x-permission'] = permission;
    const note = `Needs the \`${permission}\` permission.`;
    schema.description = schema.description ? `${schema.description}\n\n${note}` : note;
  }
}

/**
 * Answers of the signed-in surfaces are never stored by a browser or a proxy (`Cache-Control:
 * no-store`) unless the route set its own: many carry a secret shown once (an API token, a
 * webhook signing secret, a sudo token, a 2FA secret and recovery codes, a generated password),
 * and the rest are one account's data. docs/api.md, "Conventions".
 */
function neverStored(scope: FastifyInstance): void {
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The public surface (reference data): no session, no maintenance gate; documented as `security: []`. */
export function installPublicSurface(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => documentPublic(route));
}

/**
 * The customer surface: every route needs a live customer session unless it says
 * `config: { public: true }`; in maintenance mode everything but routes marked
 * `allowInMaintenance` answers 503; every signed-in write names its activity action and is
 * recorded in the transaction of its change, and every request of an impersonated session leaves
 * a trail entry (activity.ts); both through the one audit writer.
 */
export function installCustomerSurface(
  scope: FastifyInstance,
  opts: { authenticator: CustomerAuthenticator; maintenanceMode: () => Promise<boolean>; auditLog: AuditLog },
): void {
  recordCustomerActivity(scope, opts.auditLog);
  neverStored(scope);
  scope.addHook('onRoute', (route) => {
    if (!route.config?.public) documentSecurity(route, 'customerCookie');
    else documentPublic(route);
  });
  scope.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config.allowInMaintenance && (await opts.maintenanceMode())) throw new MaintenanceError();
    if (config.public) {
      if (config.optionalSession) request.customer = await opts.authenticator.authenticate(request, reply).catch(() => undefined);
      return;
    }
    request.customer = await opts.authenticator.authenticate(request, reply);
  });
  recordImpersonatedRequests(scope, opts.auditLog);
}

/**
 * The backoffice surface: every route must name its permission, and every write but the public
 * login routes its audit action (start-up fails otherwise); an admin without the permission gets
 * 403 before the handler runs; every successful write ends with an audit entry (write-audit.ts).
 */
export function installBackofficeSurface(
  scope: FastifyInstance,
  opts: { authenticator: AdminAuthenticator; catalog: ReadonlySet<string>; routeMap: RoutePermission[]; auditLog: AuditLog },
): void {
  scope.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (!permission) throw new Error(`backoffice route ${String(route.method)} ${route.url} declares no permission`);
    if (permission !== 'public' && permission !== 'authenticated' && !opts.catalog.has(permission)) {
      throw new Error(`backoffice route ${route.url} uses unknown permission ${permission}`);
    }
    const methods = [route.method].flat().map(String);
    const audit = route.config?.audit;
    if (permission !== 'public' && methods.some((m) => WRITE_METHODS.has(m)) && !audit) {
      throw new Error(`backoffice route ${methods.join(',')} ${route.url} declares no audit action (config.audit)`);
    }
    if (audit !== undefined && !AUDIT_ACTION.test(audit)) throw new Error(`backoffice route ${route.url} has a malformed audit action ${audit}`);
    for (const method of methods) {
      if (method !== 'HEAD') opts.routeMap.push({ method, url: route.url, permission, ...(audit && WRITE_METHODS.has(method) ? { audit } : {}) });
    }
    if (permission !== 'public') documentSecurity(route, 'backofficeCookie', permission);
    else documentPublic(route);
  });
  auditBackofficeWrites(scope, opts.auditLog);
  neverStored(scope);
  scope.addHook('onRequest', async (request, reply) => {
    const permission = request.routeOptions.config.permission;
    if (permission === 'public') return;
    const admin = await opts.authenticator.authenticate(request, reply);
    request.admin = admin;
    if (permission !== 'authenticated' && !admin.permissions.includes(permission!)) {
      throw new ForbiddenError(`This needs the ${permission} permission`);
    }
  });
}

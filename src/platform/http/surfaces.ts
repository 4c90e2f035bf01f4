import type { FastifyInstance } from 'fastify';
import { ForbiddenError, MaintenanceError } from '../errors.js';
import type { AdminAuthenticator, CustomerAuthenticator } from './auth.js';

export interface RoutePermission {
  method: string;
  url: string;
  permission: string;
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
    const note = `Needs the \`${permission}\` permission.`;
    schema.description = schema.description ? `${schema.description}\n\n${note}` : note;
  }
}

/** The public surface (reference data): no session, no maintenance gate; documented as `security: []`. */
export function installPublicSurface(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => documentPublic(route));
}

/**
 * The customer surface: every route needs a live customer session unless it says
 * `config: { public: true }`; in maintenance mode everything but routes marked
 * `allowInMaintenance` answers 503.
 */
export function installCustomerSurface(
  scope: FastifyInstance,
  opts: { authenticator: CustomerAuthenticator; maintenanceMode: () => Promise<boolean> },
): void {
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
}

/**
 * The backoffice surface: every route must name its permission (start-up fails otherwise);
 * an admin without it gets 403 before the handler runs.
 */
export function installBackofficeSurface(
  scope: FastifyInstance,
  opts: { authenticator: AdminAuthenticator; catalog: ReadonlySet<string>; routeMap: RoutePermission[] },
): void {
  scope.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (!permission) throw new Error(`backoffice route ${String(route.method)} ${route.url} declares no permission`);
    if (permission !== 'public' && permission !== 'authenticated' && !opts.catalog.has(permission)) {
      throw new Error(`backoffice route ${route.url} uses unknown permission ${permission}`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') opts.routeMap.push({ method, url: route.url, permission });
    }
    if (permission !== 'public') documentSecurity(route, 'backofficeCookie', permission);
    else documentPublic(route);
  });
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

import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Container } from './container.js';
import { migrationCount, queryRows } from './platform/db/database.js';
import { registerConstraintMeanings } from './platform/db/errors.js';
import { frameworkErrors, registerErrorHandling } from './platform/http/error-handler.js';
import { compiledOnFirstUse } from './platform/http/lazy-compilers.js';
import { registerHttpMetrics } from './platform/http/metrics.js';
import { exactMoneySerializers } from './platform/http/money-json.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerConsole } from './platform/http/console.js';
import { requestIdOf } from './platform/http/request-id.js';
import { refuseCrossOriginWrites } from './platform/http/same-origin.js';
import { securityHeaders } from './platform/http/security-headers.js';
import { ErrorBody } from './platform/http/schemas.js';
import { installCustomerSurface, installPublicSurface } from './platform/http/surfaces.js';
import { exactJsonNumbers, rejectNonFiniteNumbers, rejectUnreasonableInput, strictBodyValidators, strictQueryStrings } from './platform/http/validation.js';
import { installBackofficeSurface } from './platform/http/surfaces.js';
import type { Surface } from './platform/module.js';
import { PERMISSION_SET } from './modules/admins/index.js';
import { requireTokenScopes } from './modules/api-tokens/index.js';
import { requireMemberPermissions } from './modules/members/index.js';

export const API_VERSION = '0.1.0';

/** Mounts every module's routes of one surface, in the order the container built the modules. */
async function mountRoutes(scope: FastifyInstance, c: Container, surface: Surface): Promise<void> {
  for (const m of c.modules) for (const r of m.routes ?? []) if (r.surface === surface) await r.register(scope);
}

export async function buildApp(c: Container): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: c.log as FastifyBaseLogger,
    genReqId: requestIdOf,
    // Fastify accepts a hop count too (proxy-addr); its typings leave numbers out.
    trustProxy: c.config.trustProxy as boolean | string,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    // validators and serializers are compiled at each route's first request, not all at start-up
    schemaController: { compilersFactory: { buildValidator: compiledOnFirstUse(strictBodyValidators()), buildSerializer: compiledOnFirstUse(exactMoneySerializers()) } },
    ajv: {
      customOptions: {
        // Unknown fields are refused by the schemas (additionalProperties: false), never dropped silently.
        removeAdditional: false,
        // for query strings, params and headers only: bodies are validated without coercion
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every response: its request id and helmet's security headers (the same set each time, worked out once).
  const headers = securityHeaders({ contentSecurityPolicy: false });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  // An answer that finishes while the server closes ends its connection: a keep-alive connection
  // left idle would hold close() (and a graceful shutdown) for Fastify's keep-alive timeout, 72 s.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Writes sent by another origin's page are refused before anything else (docs/api.md, "Conventions (all routes)", cross-origin writes).
  refuseCrossOriginWrites(app, { publicUrl: c.config.publicUrl });

  // A request that loses a race on a unique constraint answers the code the service's own check gives.
  for (const m of c.modules) if (m.constraints) registerConstraintMeanings(m.constraints);
  registerErrorHandling(app);
  exactJsonNumbers(app);
  rejectUnreasonableInput(app);
  strictQueryStrings(app);
  rejectNonFiniteNumbers(app);
  app.addSchema(ErrorBody);
  await registerOpenApi(app, { publicUrl: c.config.publicUrl, version: API_VERSION });
  await app.register(cookie);
  // WebSocket routes (a VM's serial console); a client message larger than this closes with 1009
  await app.register(websocket, { options: { maxPayload: c.config.serialConsole.maxMessageBytes } });
  // The API reads JSON bodies only (415 otherwise); form bodies are parsed only for the server's
  // own HTML forms (the modules mount those pages with `forms: true`) and the pgone callback (its own parser).
  app.removeContentTypeParser('text/plain');
  registerHttpMetrics(app, c.metrics, { token: c.config.metricsToken, production: c.config.nodeEnv === 'production' });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const wedged = c.database.wedged();
    if (wedged) {
      return reply.status(503).send({ status: 'database wedged', held_for_ms: Date.now() - wedged.since, held_by: wedged.what() });
    }
    try {
      const [row] = await queryRows<{ n: number }>(c.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const expected = migrationCount();
      if ((row?.n ?? 0) < expected) {
        return reply.status(503).send({ status: 'migrations pending', applied: row?.n ?? 0, expected });
      }
      return { status: 'ready', database: c.database.kind, migrations: expected };
    } catch {
      return reply.status(503).send({ status: 'database unreachable' });
    }
  });

  await app.register(async (publicApi) => {
    installPublicSurface(publicApi);
    await mountRoutes(publicApi, c, 'public');
  });
  await mountRoutes(app, c, 'root');

  // The backoffice: every route names its permission; the map is served at GET /api/backoffice/admin/permissions.
  await app.register(
    async (bo) => {
      installBackofficeSurface(bo, {
        authenticator: c.services.adminAuthenticator,
        catalog: PERMISSION_SET,
        routeMap: c.routeMap,
        auditLog: c.services.audit,
      });
      await mountRoutes(bo, c, 'backoffice');
    },
    { prefix: '/api/backoffice' },
  );
  // The customer API: a live session on every route but the public ones; 503 in maintenance mode.
  await app.register(async (customerApi) => {
    installCustomerSurface(customerApi, {
      authenticator: c.services.customerAuthenticator,
      maintenanceMode: () => c.services.settings.isMaintenance(),
      auditLog: c.services.audit,
    });
    // every signed-in route is in the API token scope table (start-up fails otherwise)
    requireTokenScopes(customerApi);
    // every signed-in route names the permission a member's role must hold (start-up fails otherwise)
    requireMemberPermissions(customerApi, c.services.members);
    await mountRoutes(customerApi, c, 'customer');
  });
  // The web console: every other GET path (customers at /, staff at /backoffice).
  if (c.config.console.enabled) await registerConsole(app, { dir: c.config.console.dir });

  return app;
}

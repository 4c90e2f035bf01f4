import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
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
import { securityHeaders } from './platform/http/security-headers.js';
import { ErrorBody } from './platform/http/schemas.js';
import { installCustomerSurface, installPublicSurface } from './platform/http/surfaces.js';
import { exactJsonNumbers, rejectNonFiniteNumbers, rejectUnreasonableInput, strictBodyValidators, strictQueryStrings } from './platform/http/validation.js';
import { lookupsRoutes } from './modules/lookups/index.js';
import { installBackofficeSurface, type RoutePermission } from './platform/http/surfaces.js';
import { adminAuthRoutes, adminsAdminRoutes, adminsConstraintMeanings, PERMISSION_SET } from './modules/admins/index.js';
import { activityRoutes, actorOf, auditAdminRoutes, auditImpersonatedRequests } from './modules/audit/index.js';
import { settingsAdminRoutes, settingsConstraintMeanings } from './modules/settings/index.js';
import { jobsAdminRoutes } from './modules/jobs/index.js';
import { customerAdminRoutes } from './modules/customer-admin/index.js';
import { authPages, authRoutes } from './modules/auth/index.js';
import { customersConstraintMeanings, customersRoutes } from './modules/customers/index.js';
import { billingAdminRoutes, billingRoutes, couponsConstraintMeanings, sandboxRoutes, webhookRoutes } from './modules/billing/index.js';
import { walletAdminRoutes } from './modules/wallet/index.js';
import { tiersAdminRoutes, tiersConstraintMeanings } from './modules/tiers/index.js';
import { blockStorageAdminRoutes, blockStorageConstraintMeanings } from './modules/block-storage/index.js';
import { pricingAdminRoutes, pricingConstraintMeanings } from './modules/pricing/index.js';
import { computeAdminRoutes, computeConstraintMeanings, computeRoutes } from './modules/compute/index.js';
import { ticketsAdminRoutes, ticketsRoutes } from './modules/tickets/index.js';
import { announcementsAdminRoutes, announcementsRoutes } from './modules/announcements/index.js';
import { retentionAdminRoutes } from './modules/retention/index.js';
import { notificationsRoutes } from './modules/notifications/index.js';
import { networksAdminRoutes, networksConstraintMeanings, networksRoutes } from './modules/networks/index.js';
import { dashboardAdminRoutes } from './modules/dashboard/index.js';
import { rewardsAdminRoutes, rewardsConstraintMeanings, rewardsRoutes } from './modules/rewards/index.js';
import { loadBalancersAdminRoutes, loadBalancersRoutes } from './modules/load-balancers/index.js';
import { sshKeysConstraintMeanings, sshKeysRoutes } from './modules/ssh-keys/index.js';
import { securityGroupsConstraintMeanings, securityGroupsRoutes, vmSecurityGroupsRoutes } from './modules/security-groups/index.js';
import { chargingAdminRoutes, chargingRoutes, postpaidAdminRoutes, postpaidRoutes } from './modules/charging/index.js';
import { objectStorageConstraintMeanings, objectStorageRoutes } from './modules/object-storage/index.js';
import { apiTokensAdminRoutes, apiTokensRoutes, requireTokenScopes } from './modules/api-tokens/index.js';
import { webhooksRoutes } from './modules/webhooks/index.js';

export const API_VERSION = '0.1.0';

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

  // A request that loses a race on a unique constraint answers the code the service's own check gives.
  registerConstraintMeanings({ ...customersConstraintMeanings, ...adminsConstraintMeanings, ...settingsConstraintMeanings, ...couponsConstraintMeanings });
  registerConstraintMeanings({ ...tiersConstraintMeanings, ...blockStorageConstraintMeanings, ...pricingConstraintMeanings, ...computeConstraintMeanings });
  registerConstraintMeanings(networksConstraintMeanings);
  registerConstraintMeanings({ ...rewardsConstraintMeanings, ...securityGroupsConstraintMeanings, ...sshKeysConstraintMeanings });
  registerConstraintMeanings(objectStorageConstraintMeanings);
  registerErrorHandling(app);
  exactJsonNumbers(app);
  rejectUnreasonableInput(app);
  strictQueryStrings(app);
  rejectNonFiniteNumbers(app);
  app.addSchema(ErrorBody);
  await registerOpenApi(app, { publicUrl: c.config.publicUrl, version: API_VERSION });
  await app.register(cookie);
  await app.register(formbody);
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
    await publicApi.register(lookupsRoutes, { prefix: '/api/lookup', lookups: c.services.lookups });
  });
  if (c.config.paymentMode === 'sandbox') {
    await app.register(sandboxRoutes, { sandbox: c.services.sandboxPayments, publicUrl: c.config.publicUrl });
  }

  // The backoffice: every route names its permission; the map is served at GET /api/backoffice/admin/permissions.
  const routeMap: RoutePermission[] = [];
  await app.register(
    async (bo) => {
      installBackofficeSurface(bo, {
        authenticator: c.services.adminAuthenticator,
        catalog: PERMISSION_SET,
        routeMap,
        recordWrite: (req, entry) => c.services.audit.record(c.db, { actor: actorOf(req), ...entry }),
      });
      const s = c.services;
      await bo.register(adminAuthRoutes, {
        prefix: '/auth',
        auth: s.adminAuth,
        twoFactor: s.staffTwoFactor,
        cookieSecure: c.config.cookieSecure,
        rateLimitPerMin: c.config.authRateLimitPerMin,
        rateLimits: c.rateLimits,
      });
      await bo.register(adminsAdminRoutes, { prefix: '/admin', admins: s.admins, twoFactor: s.staffTwoFactor, roles: s.roles, routeMap });
      await bo.register(auditAdminRoutes, { prefix: '/audit-logs', audit: s.audit });
      await bo.register(settingsAdminRoutes, { prefix: '/setting', settings: s.settings });
      await bo.register(jobsAdminRoutes, { prefix: '/jobs', jobs: s.jobsAdmin });
      await bo.register(customerAdminRoutes, { service: s.customerAdmin, cookieSecure: c.config.cookieSecure });
      await bo.register(walletAdminRoutes, { wallet: s.wallet, adjustments: s.walletAdjustments, reconciliation: s.walletReconciliation });
      await bo.register(billingAdminRoutes, { deposits: s.deposits, coupons: s.coupons, callbacks: s.topupCallbacks, creditFailures: s.topupCreditFailures });
      await bo.register(tiersAdminRoutes, { tiers: s.tiers });
      await bo.register(blockStorageAdminRoutes, { prefix: '/storage/blocks', blockStorage: s.blockStorage });
      await bo.register(pricingAdminRoutes, { pricing: s.pricing });
      await bo.register(computeAdminRoutes, { prefix: '/compute', compute: s.compute });
      await bo.register(ticketsAdminRoutes, {
        prefix: '/ticket',
        tickets: s.tickets,
        stream: s.ticketStream,
        sessions: s.adminAuth,
        heartbeatMs: c.config.sseHeartbeatMs,
      });
      await bo.register(announcementsAdminRoutes, { prefix: '/announcements', announcements: s.announcements, kind: 'announcement' });
      await bo.register(announcementsAdminRoutes, { prefix: '/release-notes', announcements: s.announcements, kind: 'release_note' });
      await bo.register(networksAdminRoutes, { prefix: '/network/private', networks: s.networks });
      await bo.register(dashboardAdminRoutes, { prefix: '/dashboard', dashboard: s.dashboard });
      await bo.register(rewardsAdminRoutes, { rewards: s.rewards });
      await bo.register(loadBalancersAdminRoutes, { balancers: s.loadBalancers });
      await bo.register(chargingAdminRoutes, { usage: s.billingUsage, charging: s.charging });
      await bo.register(retentionAdminRoutes, { retention: s.retention });
      await bo.register(postpaidAdminRoutes, { postpaid: s.postpaid, payments: s.postpaidPayments });
      await bo.register(apiTokensAdminRoutes, { tokens: s.apiTokens });
    },
    { prefix: '/api/backoffice' },
  );
  // The customer API: a live session on every route but the public ones; 503 in maintenance mode.
  await app.register(async (customerApi) => {
    installCustomerSurface(customerApi, {
      authenticator: c.services.customerAuthenticator,
      maintenanceMode: () => c.services.settings.isMaintenance(),
      // a write made with an API token names the token in its entry
      recordActivity: (req, entry, tx) =>
        c.services.audit.record((tx as typeof c.db | undefined) ?? c.db, {
          actor: actorOf(req),
          ...entry,
          ...(req.customer?.apiTokenId !== undefined ? { after: { ...(entry.after as object), api_token_id: req.customer.apiTokenId } } : {}),
        }),
    });
    // every signed-in route is in the API token scope table (start-up fails otherwise)
    requireTokenScopes(customerApi);
    auditImpersonatedRequests(customerApi, c.services.audit, c.db);
    const s = c.services;
    await customerApi.register(authRoutes, {
      prefix: '/api/auth',
      auth: s.auth,
      sessions: s.sessions,
      twoFactor: s.twoFactor,
      changeEmail: s.changeEmail,
      events: s.securityEvents,
      cookieSecure: c.config.cookieSecure,
      rateLimitPerMin: c.config.authRateLimitPerMin,
      rateLimits: c.rateLimits,
    });
    // Without a front end, the links in the e-mails land on small pages of this server that do the step.
    if (!c.config.frontendUrl) {
      await customerApi.register(authPages, {
        auth: s.auth,
        changeEmail: s.changeEmail,
        events: s.securityEvents,
        publicUrl: c.config.publicUrl,
        cookieSecure: c.config.cookieSecure,
        rateLimitPerMin: c.config.authRateLimitPerMin,
        rateLimits: c.rateLimits,
      });
    }
    await customerApi.register(customersRoutes, { prefix: '/api', customers: s.customers });
    // Payment callbacks and redirect: public, open in maintenance mode (spec 4.1, docs/decisions.md §6).
    await customerApi.register(webhookRoutes, {
      payments: s.topupCallbacks,
      frontendUrl: c.config.frontendUrl,
      rateLimitPerMin: c.config.webhookRateLimitPerMin,
      rateLimits: c.rateLimits,
    });
    await customerApi.register(billingRoutes, { prefix: '/api/billing', deposits: s.deposits });
    await customerApi.register(computeRoutes, { prefix: '/api/compute', compute: s.compute });
    await customerApi.register(ticketsRoutes, { prefix: '/api/ticket', tickets: s.tickets });
    await customerApi.register(announcementsRoutes, { prefix: '/api', announcements: s.announcements });
    await customerApi.register(notificationsRoutes, { prefix: '/api/notifications', notifications: s.notifications });
    await customerApi.register(activityRoutes, { prefix: '/api/activity', audit: s.audit });
    await customerApi.register(networksRoutes, { prefix: '/api/network/private', networks: s.networks });
    await customerApi.register(rewardsRoutes, { prefix: '/api', rewards: s.rewards });
    await customerApi.register(securityGroupsRoutes, { prefix: '/api/network/security-group', groups: s.securityGroups });
    await customerApi.register(vmSecurityGroupsRoutes, { prefix: '/api/compute', groups: s.securityGroups });
    await customerApi.register(loadBalancersRoutes, { prefix: '/api/network/load-balancer', balancers: s.loadBalancers });
    await customerApi.register(chargingRoutes, { prefix: '/api/billing', usage: s.billingUsage });
    await customerApi.register(postpaidRoutes, { prefix: '/api/billing', postpaid: s.postpaid, payments: s.postpaidPayments });
    await customerApi.register(objectStorageRoutes, { prefix: '/api/storage/object', storage: s.objectStorage });
    await customerApi.register(sshKeysRoutes, { prefix: '/api/ssh-keys', keys: s.sshKeys });
    await customerApi.register(apiTokensRoutes, { prefix: '/api/tokens', tokens: s.apiTokens, sudo: s.twoFactor });
    await customerApi.register(webhooksRoutes, { prefix: '/api/webhooks', webhooks: s.webhooks });
  });
  // The web console: every other GET path (customers at /, staff at /backoffice).
  if (c.config.console.enabled) await registerConsole(app, { dir: c.config.console.dir });

  return app;
}

import type { RoutePermission } from '../../platform/http/surfaces.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import { adminAuthRoutes } from './admin-auth.admin-routes.js';
import { AdminPasswordLinksRepository } from './admin-password-links.repository.js';
import { adminPasswordPages } from './admin-password.pages.js';
import { AdminAuthService } from './admin-auth.service.js';
import { AdminSessionsRepository } from './admin-sessions.repository.js';
import { AdminTokens } from './admin-tokens.js';
import { adminsAdminRoutes } from './admins.admin-routes.js';
import { CookieAdminAuthenticator } from './admins.authenticator.js';
import { AdminsRepository, RolesRepository } from './admins.repository.js';
import { bootstrapFirstAdmin } from './admins.bootstrap.js';
import { AdminsService } from './admins.service.js';
import { adminsConstraintMeanings } from './admins.tables.js';
import { RolesService } from './roles.service.js';
import { StaffTwoFactorService } from './staff-two-factor.service.js';

/** Staff: accounts, roles, sign-in with its second factor, and the backoffice's route map. */
export function createAdminsModule(p: Platform, deps: { audit: AuditService; settings: SettingsService }) {
  const { db, clock, config, accountLock } = p;
  const adminsRepo = new AdminsRepository();
  const rolesRepo = new RolesRepository();
  const adminSessions = new AdminSessionsRepository();
  const roles = new RolesService(db, rolesRepo, adminsRepo, deps.audit);
  const adminPasswordLinks = new AdminPasswordLinksRepository();
  const admins = new AdminsService(db, adminsRepo, rolesRepo, adminSessions, deps.audit, p.mailer, clock, accountLock, adminPasswordLinks, { publicUrl: config.publicUrl });
  const staffTwoFactor = new StaffTwoFactorService(db, adminsRepo, adminSessions, deps.audit, accountLock, clock, { encryptionKey: config.encryptionKey, issuer: 'Cloud Platform Backoffice' });
  const adminAuth = new AdminAuthService(db, adminsRepo, adminSessions, roles, deps.audit, new AdminTokens(config.jwtSecret), clock, {
    lock: accountLock,
    refreshTokens: p.refreshTokens,
    twoFactor: staffTwoFactor,
    staffTwoFactorScope: () => deps.settings.staffTwoFactorScope(),
    passwordLinks: adminPasswordLinks,
  });
  /** every backoffice route and its permission, filled as the routes register (GET /api/backoffice/admin/permissions) */
  const routeMap: RoutePermission[] = [];
  return {
    services: { roles, admins, staffTwoFactor, adminAuth, adminAuthenticator: new CookieAdminAuthenticator(adminAuth) },
    seed: () => roles.seed(),
    /** creates the first Super Admin on a database without staff (after the seeds: it needs the roles) */
    bootstrap: () =>
      bootstrapFirstAdmin(admins, {
        email: config.bootstrapAdminEmail,
        password: config.bootstrapAdminPassword,
        embeddedDefault: config.databaseUrl === undefined,
        log: p.log,
      }),
    /** staff accounts, for the customer side's impersonation check */
    adminsRepo,
    routeMap,
    jobs: [adminAuth.pruneJob],
    routes: [
      mount('backoffice', adminAuthRoutes, {
        prefix: '/auth',
        auth: adminAuth,
        twoFactor: staffTwoFactor,
        cookieSecure: config.cookieSecure,
        rateLimitPerMin: config.authRateLimitPerMin,
        rateLimits: p.rateLimits,
      }),
      mount('backoffice', adminsAdminRoutes, { prefix: '/admin', admins, twoFactor: staffTwoFactor, roles, routeMap }),
      // the page a staff member's mailed set-password link opens, when no console or front end serves it
      ...(config.frontendUrl
        ? []
        : [mount('root', adminPasswordPages, { auth: adminAuth, publicUrl: config.publicUrl, rateLimitPerMin: config.authRateLimitPerMin, rateLimits: p.rateLimits }, { forms: true })]),
    ],
    constraints: adminsConstraintMeanings,
  } satisfies BuiltModule;
}

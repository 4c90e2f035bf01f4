import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { AuditService } from '../audit/index.js';
import { AccountAccess, type AccountApiTokens } from './account-access.js';
import { authPages } from './auth.pages.js';
import { AuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { AuthService, type ReferralClaims } from './auth.service.js';
import { CustomerTokens } from './auth.tokens.js';
import { ChangeEmailService } from './change-email.service.js';
import { CookieCustomerAuthenticator } from './customer-authenticator.js';
import { SecurityEvents } from './security-events.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionService, type ImpersonatorAuthority } from './sessions.service.js';
import { TwoFactorService } from './two-factor.service.js';

export interface AuthDeps {
  audit: AuditService;
  /** which staff may act as a customer (the admins module) */
  impersonators: ImpersonatorAuthority;
  /** the customer's personal access tokens, ended with the sessions when an account is recovered or switched off */
  apiTokens: AccountApiTokens;
  /** a customer may register with another's referral code (the rewards module) */
  referrals: ReferralClaims;
}

/** The customer's identity: registration, login and its second factor, sessions, e-mail change. */
export function createAuthModule(p: Platform, deps: AuthDeps) {
  const { db, clock, config, mailer } = p;
  const linkBase = config.frontendUrl ?? config.publicUrl;
  const authRepo = new AuthRepository();
  const customerTokens = new CustomerTokens(config.jwtSecret, clock);
  const securityEvents = new SecurityEvents(db, deps.audit);
  const sessions = new SessionService(db, new SessionsRepository(), authRepo, customerTokens, clock, securityEvents, p.refreshTokens, deps.impersonators);
  const access = new AccountAccess(sessions, authRepo, deps.apiTokens, clock);
  const auth = new AuthService(db, authRepo, sessions, customerTokens, mailer, clock, { base: linkBase, encryptionKey: config.encryptionKey }, {
    lock: p.accountLock,
    events: securityEvents,
    queue: p.queue,
    access,
    referrals: deps.referrals,
  });
  const twoFactor = new TwoFactorService(db, authRepo, customerTokens, mailer, clock, { encryptionKey: config.encryptionKey, issuer: 'Cloud Platform' }, p.accountLock, securityEvents);
  const changeEmail = new ChangeEmailService(db, authRepo, sessions, mailer, clock, { linkBase, otpKey: config.jwtSecret }, securityEvents, access);
  const limits = { cookieSecure: config.cookieSecure, rateLimitPerMin: config.authRateLimitPerMin, rateLimits: p.rateLimits };
  return {
    services: { auth, sessions, twoFactor, changeEmail, securityEvents },
    /** the session cookie's authenticator (the API tokens module puts the bearer token in front of it) */
    cookieAuthenticator: new CookieCustomerAuthenticator(sessions),
    access,
    jobs: [sessions.pruneJob, auth.accountMailJob],
    routes: [
      mount('customer', authRoutes, { prefix: '/api/auth', auth, sessions, twoFactor, changeEmail, events: securityEvents, ...limits }),
      // Without a front end, the links in the e-mails land on small pages of this server that do the step.
      ...(config.frontendUrl ? [] : [mount('customer', authPages, { auth, changeEmail, events: securityEvents, publicUrl: config.publicUrl, ...limits }, { forms: true })]),
    ],
  } satisfies BuiltModule;
}

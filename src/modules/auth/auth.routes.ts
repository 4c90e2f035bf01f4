import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { personalOf } from '../../platform/http/auth.js';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { clearSessionCookies, clientMeta, CookieName, setChallengeCookie, setSessionCookies } from './auth.cookies.js';
import { sessionView } from './auth.present.js';
import {
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  LoginResult,
  RegisterBody,
  ResetPasswordBody,
  SessionEntry,
  SessionParams,
  TokenBody,
  VerifyCodeBody,
  VerifyRecoveryBody,
} from './auth.schemas.js';
import type { AuthService } from './auth.service.js';
import { changeEmailRoutes } from './change-email.routes.js';
import type { ChangeEmailService } from './change-email.service.js';
import type { SessionService } from './sessions.service.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import type { TwoFactorService } from './two-factor.service.js';
import { enforceSecurityAudit, SecurityAction, type SecurityEvents } from './security-events.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  changeEmail: ChangeEmailService;
  events: SecurityEvents;
  cookieSecure: boolean;
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

const tags = ['Authentication'];
const ok = { message: 'OK', data: null };

/** /api/auth: mounted inside the customer surface. Every route here is rate limited per IP. */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, opts) => {
  const { auth, sessions, cookieSecure } = opts;
  enforceSecurityAudit(app, opts.events);
  await app.register(rateLimit, perClientLimit('customer-auth', opts.rateLimitPerMin, opts.rateLimits));

  app.post(
    '/register',
    {
      config: { securityEvent: SecurityAction.registered, public: true },
      schema: { tags, summary: 'Create an account; a verification link is e-mailed', body: RegisterBody, response: { 201: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses(400, 409, 429) } },
    },
    async (req, reply) => reply.status(201).send({ message: 'Registered: check your mailbox to confirm your e-mail address', data: await auth.register(req.body) }),
  );

  app.post(
    '/register/verify',
    { config: { securityEvent: SecurityAction.emailVerified, public: true }, schema: { tags, summary: 'Confirm the e-mail address with the link token', body: TokenBody, response: { 200: MessageOnly, ...errorResponses(400, 429) } } },
    async (req) => {
      await auth.verifyRegistration(req.body.token);
      return { message: 'E-mail address confirmed, you can log in now', data: null };
    },
  );

  app.post(
    '/register/resend',
    {
      config: { securityEvent: false, public: true },
      schema: { tags, summary: 'Mail a new verification link to an unverified account (always 200)', body: ForgotPasswordBody, response: { 200: MessageOnly, ...errorResponses(400, 429) } },
    },
    async (req) => {
      await auth.resendVerification(req.body.email);
      return { message: 'If an unverified account exists for this address, a new link is on its way', data: null };
    },
  );

  app.post(
    '/login',
    {
      config: { securityEvent: SecurityAction.login, public: true, allowInMaintenance: true },
      schema: {
        tags,
        summary: 'Log in; with 2FA on only the mfa_challenge cookie is set',
        description: 'Sets access_token and refresh_token (redirect DASHBOARD), or only mfa_challenge (redirect 2FA). Unverified accounts get 403 EMAIL_NOT_VERIFIED; 10 failures in 15 minutes lock the login for 15 minutes (429).',
        body: LoginBody,
        response: { 200: Envelope(LoginResult), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const result = await auth.login(req.body, clientMeta(req));
      if (result.kind === '2fa') {
        setChallengeCookie(reply, result.challengeToken, cookieSecure);
        return { message: 'Enter the code from your authenticator app', data: { redirect: '2FA' as const } };
      }
      setSessionCookies(reply, result.session, cookieSecure);
      return { message: 'Logged in', data: { redirect: 'DASHBOARD' as const } };
    },
  );

  app.post(
    '/2fa/verify-code',
    {
      config: { securityEvent: SecurityAction.login, public: true, allowInMaintenance: true },
      schema: { tags, summary: 'Second login step with a TOTP code (needs the mfa_challenge cookie)', body: VerifyCodeBody, response: { 200: Envelope(LoginResult), ...errorResponses(400, 401, 429) } },
    },
    async (req, reply) => {
      setSessionCookies(reply, await auth.verifyCode(req.cookies[CookieName.challenge], req.body, clientMeta(req)), cookieSecure);
      return { message: 'Logged in', data: { redirect: 'DASHBOARD' as const } };
    },
  );

  app.post(
    '/2fa/verify-recovery',
    {
      config: { securityEvent: SecurityAction.login, public: true, allowInMaintenance: true },
      schema: { tags, summary: 'Second login step with a recovery code (recovery_code or code)', body: VerifyRecoveryBody, response: { 200: Envelope(LoginResult), ...errorResponses(400, 401, 429) } },
    },
    async (req, reply) => {
      const code = req.body.recovery_code ?? req.body.code ?? '';
      setSessionCookies(reply, await auth.verifyRecovery(req.cookies[CookieName.challenge], { email: req.body.email, code }, clientMeta(req)), cookieSecure);
      return { message: 'Logged in', data: { redirect: 'DASHBOARD' as const } };
    },
  );

  app.post(
    '/refresh',
    {
      config: { securityEvent: false, public: true, allowInMaintenance: true },
      schema: { tags, summary: 'New cookies from the refresh_token cookie (rotated; reuse ends the session)', response: { 200: MessageOnly, ...errorResponses(401, 429) } },
    },
    async (req, reply) => {
      try {
        setSessionCookies(reply, await sessions.refresh(req.cookies[CookieName.refresh]), cookieSecure);
      } catch (err) {
        clearSessionCookies(reply, cookieSecure);
        throw err;
      }
      return { message: 'Session refreshed', data: null };
    },
  );

  app.post(
    '/logout',
    {
      // Public so that logout works once the 15-minute access token has expired: the refresh cookie names the session then.
      config: { securityEvent: SecurityAction.logout, public: true, optionalSession: true },
      schema: {
        tags,
        summary: 'End the current session (named by the access cookie, else the refresh cookie); always 200, clears the cookies',
        security: [{ customerCookie: [] }, { customerRefreshCookie: [] }, {}],
        response: { 200: MessageOnly, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      await sessions.logout({ accessToken: req.cookies[CookieName.access], refreshToken: req.cookies[CookieName.refresh] });
      clearSessionCookies(reply, cookieSecure);
      return { message: 'Logged out', data: null };
    },
  );

  app.post(
    '/password/change',
    { config: { securityEvent: SecurityAction.passwordChanged }, schema: { tags, summary: 'Change the password; other sessions are ended', body: ChangePasswordBody, response: { 200: MessageOnly, ...errorResponses(400, 401, 429) } } },
    async (req) => {
      const me = personalOf(req);
      await auth.changePassword(me.customerId, me.sessionId, req.body);
      return { message: 'Password changed', data: null };
    },
  );

  app.post(
    '/password/forgot',
    { config: { securityEvent: false, public: true }, schema: { tags, summary: 'Mail a reset link (always 200)', body: ForgotPasswordBody, response: { 200: MessageOnly, ...errorResponses(400, 429) } } },
    async (req) => {
      await auth.forgotPassword(req.body.email);
      return { message: 'If an account exists for this address, a reset link is on its way', data: null };
    },
  );

  app.post(
    '/password/reset',
    { config: { securityEvent: SecurityAction.passwordReset, public: true }, schema: { tags, summary: 'Set a new password with the link token; all sessions end', body: ResetPasswordBody, response: { 200: MessageOnly, ...errorResponses(400, 429) } } },
    async (req) => {
      await auth.resetPassword(req.body);
      return { message: 'Password changed, log in with the new password', data: null };
    },
  );

  app.get('/sessions', { schema: { tags, summary: 'My device sessions', response: { 200: Envelope(Type.Array(SessionEntry)), ...errorResponses(401) } } }, async (req) => {
    const me = personalOf(req);
    return { message: 'OK', data: (await sessions.list(me.customerId, me.sessionId)).map(sessionView) };
  });

  app.delete(
    '/sessions/:sid',
    { config: { securityEvent: SecurityAction.sessionRevoked }, schema: { tags, summary: 'End one of my device sessions', params: SessionParams, response: { 200: MessageOnly, ...errorResponses(401, 404) } } },
    async (req) => {
      await sessions.revoke(personalOf(req).customerId, req.params.sid);
      return ok;
    },
  );

  await app.register(twoFactorRoutes, { twoFactor: opts.twoFactor });
  await app.register(changeEmailRoutes, { changeEmail: opts.changeEmail, cookieSecure });
};

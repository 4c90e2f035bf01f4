import rateLimit from '@fastify/rate-limit';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import { adminOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import type { AdminAuthService, IssuedTokens, SessionResult } from './admin-auth.service.js';
import { ACCESS_TTL_SECONDS, CHALLENGE_TTL_SECONDS } from './admin-tokens.js';
import { BO_ACCESS_COOKIE, BO_REFRESH_COOKIE } from './admins.authenticator.js';
import { presentProfile } from './admins.present.js';
import {
  ChangePasswordBody,
  LoginBody,
  LoginData,
  SetPasswordBody,
  StaffCodeBody,
  StaffGeneratedSecret,
  StaffPasswordBody,
  StaffReauthBody,
  StaffRecoveryCodes,
  StaffSecondFactorBody,
} from './admins.schemas.js';
import type { StaffTwoFactorService } from './staff-two-factor.service.js';

const tags = ['Backoffice: authentication'];
const ACCESS_PATH = '/api/backoffice';
const REFRESH_PATH = '/api/backoffice/auth';

export const BO_CHALLENGE_COOKIE = 'bo_mfa_challenge';

export interface AdminAuthRoutesOptions {
  auth: AdminAuthService;
  twoFactor: StaffTwoFactorService;
  cookieSecure: boolean;
  /** per-IP requests per minute on these routes (AUTH_RATE_LIMIT_PER_MIN) */
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

export const adminAuthRoutes: FastifyPluginAsyncTypebox<AdminAuthRoutesOptions> = async (app, { auth, twoFactor, cookieSecure, rateLimitPerMin, rateLimits }) => {
  // Per IP, for this plugin's routes only; the per-account lock (10 failures / 15 min) is separate.
  await app.register(rateLimit, perClientLimit('backoffice-auth', rateLimitPerMin, rateLimits));

  const base = { httpOnly: true, sameSite: 'strict' as const, secure: cookieSecure };
  const setCookies = (reply: FastifyReply, t: IssuedTokens) => {
    reply.setCookie(BO_ACCESS_COOKIE, t.accessToken, { ...base, path: ACCESS_PATH, maxAge: ACCESS_TTL_SECONDS });
    reply.setCookie(BO_REFRESH_COOKIE, t.refreshToken, {
      ...base,
      path: REFRESH_PATH,
      maxAge: t.refreshMaxAgeSeconds,
    });
  };
  const sessionAnswer = (reply: FastifyReply, r: SessionResult) => {
    setCookies(reply, r);
    reply.clearCookie(BO_CHALLENGE_COOKIE, { ...base, path: REFRESH_PATH });
    const data = { must_change_password: r.admin.mustChangePassword, two_factor_required: false, first_login: r.firstLogin, two_factor_setup_required: r.twoFactorSetupRequired, admin: presentProfile(r.admin, r.permissions) };
    const message = r.admin.mustChangePassword ? 'Logged in; change your password to continue' : r.twoFactorSetupRequired ? 'Logged in; turn on two-factor authentication to continue' : 'Logged in';
    return { message, data };
  };
  const clearCookies = (reply: FastifyReply) => {
    reply.clearCookie(BO_ACCESS_COOKIE, { ...base, path: ACCESS_PATH });
    reply.clearCookie(BO_REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
  };

  app.post(
    '/login',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Staff login; sets bo_access_token (15 min) and bo_refresh_token cookies, or with 2FA on only bo_mfa_challenge',
        body: LoginBody,
        response: { 200: Envelope(LoginData), ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const r = await auth.login(req.body, actorOf(req));
      if (r.kind === '2fa') {
        reply.setCookie(BO_CHALLENGE_COOKIE, r.challengeToken, { ...base, path: REFRESH_PATH, maxAge: CHALLENGE_TTL_SECONDS });
        return { message: 'Enter the code from your authenticator app', data: { must_change_password: false, two_factor_required: true, two_factor_setup_required: false, first_login: false } };
      }
      return sessionAnswer(reply, r);
    },
  );

  app.post(
    '/2fa/verify',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Second login step: a TOTP code or a recovery code (needs the bo_mfa_challenge cookie)',
        body: StaffSecondFactorBody,
        response: { 200: Envelope(LoginData), ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => sessionAnswer(reply, await auth.verifySecondFactor(req.cookies[BO_CHALLENGE_COOKIE], req.body, actorOf(req))),
  );

  app.post(
    '/2fa/generate',
    {
      config: { permission: 'authenticated', audit: 'admin.2fa_secret_generated', allowPendingTwoFactor: true },
      schema: { tags, summary: 'Enrolment: a new TOTP secret (pending until enable); needs the password', body: StaffPasswordBody, response: { 200: Envelope(StaffGeneratedSecret), ...errorResponses(400, 401, 409, 429) } },
    },
    async (req) => ({ message: 'Scan the QR code, then enable with a code', data: await twoFactor.generate(adminOf(req).adminId, req.body.password) }),
  );

  app.post(
    '/2fa/enable',
    {
      config: { permission: 'authenticated', audit: 'admin.2fa_enabled', allowPendingTwoFactor: true },
      schema: { tags, summary: 'Enrolment: a code of the pending secret turns 2FA on; returns 10 recovery codes once', body: StaffCodeBody, response: { 200: Envelope(StaffRecoveryCodes), ...errorResponses(400, 401, 409, 429) } },
    },
    async (req) => ({ message: 'Two-factor authentication is on: keep the recovery codes safe', data: await twoFactor.enable(adminOf(req).adminId, req.body.code, actorOf(req)) }),
  );

  app.post(
    '/2fa/disable',
    {
      config: { permission: 'authenticated', audit: 'admin.2fa_disabled' },
      schema: { tags, summary: 'Turn 2FA off with the password and a current code', body: StaffReauthBody, response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 409, 429) } },
    },
    async (req) => {
      await twoFactor.disable(adminOf(req).adminId, req.body, actorOf(req));
      return { message: 'Two-factor authentication is off', data: null };
    },
  );

  app.post(
    '/2fa/recovery/regenerate',
    {
      config: { permission: 'authenticated', audit: 'admin.recovery_codes_regenerated' },
      schema: { tags, summary: 'A new set of 10 recovery codes (password and a current code); the old set stops working', body: StaffReauthBody, response: { 200: Envelope(StaffRecoveryCodes), ...errorResponses(400, 401, 403, 409, 429) } },
    },
    async (req) => ({ message: 'New recovery codes: the old ones no longer work', data: await twoFactor.regenerate(adminOf(req).adminId, req.body, actorOf(req)) }),
  );

  app.post(
    '/refresh',
    {
      config: { permission: 'public' },
      schema: { tags, summary: 'Rotates the bo_refresh_token cookie and issues a new access token', response: { 200: MessageOnly, ...errorResponses(401) } },
    },
    async (req, reply) => {
      const tokens = await auth.refresh(req.cookies[BO_REFRESH_COOKIE], actorOf(req));
      setCookies(reply, tokens);
      return { message: 'Token refreshed', data: null };
    },
  );

  app.get(
    '/session-hint',
    {
      // asked by the console before any signed-in call, on every page load: not an attempt to count
      config: { permission: 'public', rateLimit: false },
      schema: {
        tags,
        summary: 'Whether this browser holds backoffice session cookies (says nothing of their validity)',
        description:
          'The staff console asks this before any signed-in call: false means there is certainly no session, so it shows the login page without a 401. It lives under /api/backoffice/auth because the staff cookies are scoped to /api/backoffice (the access cookie) and /api/backoffice/auth (the refresh cookie). Always 200.',
        security: [{}],
        response: { 200: Envelope(Type.Object({ staff: Type.Boolean({ description: 'a bo_access_token or bo_refresh_token cookie came with the request' }) })) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return { message: 'OK', data: { staff: Boolean(req.cookies[BO_ACCESS_COOKIE] || req.cookies[BO_REFRESH_COOKIE]) } };
    },
  );

  app.post(
    '/logout',
    {
      // Public so that logout works once the 15-minute access token has expired: the refresh cookie names the session then.
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Ends this backoffice session (named by the access cookie, else the refresh cookie); always 200, clears the cookies',
        security: [{ backofficeCookie: [] }, { backofficeRefreshCookie: [] }, {}],
        response: { 200: MessageOnly, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      await auth.logout({ accessToken: req.cookies[BO_ACCESS_COOKIE], refreshToken: req.cookies[BO_REFRESH_COOKIE] }, actorOf(req));
      clearCookies(reply);
      return { message: 'Logged out', data: null };
    },
  );

  app.post(
    '/set-password',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Chooses the password with the token of the mailed link (new staff account or reset); one use, expires after 48 hours; the sessions of the account end',
        body: SetPasswordBody,
        response: { 200: MessageOnly, ...errorResponses(400, 429) },
      },
    },
    async (req) => {
      await auth.setPasswordByLink(req.body, actorOf(req));
      return { message: 'Password set: log in with it', data: null };
    },
  );

  app.post(
    '/change-password',
    {
      config: { permission: 'authenticated', audit: 'admin.password_changed', allowPendingPasswordChange: true },
      schema: {
        tags,
        summary: "Changes the admin's own password; other sessions of the admin end",
        body: ChangePasswordBody,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      await auth.changePassword(adminOf(req), req.body, actorOf(req));
      return { message: 'Password changed', data: null };
    },
  );
};

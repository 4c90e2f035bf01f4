import rateLimit from '@fastify/rate-limit';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { adminOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import type { AdminAuthService, IssuedTokens } from './admin-auth.service.js';
import { ACCESS_TTL_SECONDS } from './admin-tokens.js';
import { BO_ACCESS_COOKIE, BO_REFRESH_COOKIE } from './admins.authenticator.js';
import { presentProfile } from './admins.present.js';
import { ChangePasswordBody, LoginBody, LoginData } from './admins.schemas.js';

const tags = ['Backoffice: authentication'];
const ACCESS_PATH = '/api/backoffice';
const REFRESH_PATH = '/api/backoffice/auth';

export interface AdminAuthRoutesOptions {
  auth: AdminAuthService;
  cookieSecure: boolean;
  /** per-IP requests per minute on these routes (AUTH_RATE_LIMIT_PER_MIN) */
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

export const adminAuthRoutes: FastifyPluginAsyncTypebox<AdminAuthRoutesOptions> = async (app, { auth, cookieSecure, rateLimitPerMin, rateLimits }) => {
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
        summary: 'Staff login; sets bo_access_token (15 min) and bo_refresh_token cookies',
        body: LoginBody,
        response: { 200: Envelope(LoginData), ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const r = await auth.login(req.body, actorOf(req));
      setCookies(reply, r);
      const data = { must_change_password: r.admin.mustChangePassword, admin: presentProfile(r.admin, r.permissions) };
      return { message: r.admin.mustChangePassword ? 'Logged in; change your password to continue' : 'Logged in', data };
    },
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

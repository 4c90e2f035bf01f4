import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { clientErrorOf } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors.js';
import { assertSameOrigin, escapeHtml, htmlPage, sendHtml } from '../../platform/http/html.js';
import { StrictObject } from '../../platform/http/schemas.js';
import { passwordRule } from '../../platform/password-policy.js';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import { actorOf } from '../audit/index.js';
import type { AdminAuthService } from './admin-auth.service.js';
import { SET_PASSWORD_PAGE } from './admins.service.js';

export interface AdminPasswordPagesOptions {
  auth: AdminAuthService;
  publicUrl: string;
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

const Token = Type.String({ minLength: 1, maxLength: 200 });
const TokenQuery = Type.Object({ token: Type.Optional(Token) });
const SetPasswordForm = StrictObject({ token: Token, new_password: Type.String({ minLength: 1, maxLength: 1024 }) });

const message = (title: string, html: string) => htmlPage(title, `<h1>${escapeHtml(title)}</h1>${html}`);

/**
 * Where the link mailed to a new staff member (or after a reset) lands: a small server-rendered
 * page, like the customers' link pages. The GET only shows the form (mail scanners that fetch the
 * link change nothing); its POST, checked to come from this page's origin, sets the password
 * through the same service call as POST /api/backoffice/auth/set-password.
 */
export const adminPasswordPages: FastifyPluginAsyncTypebox<AdminPasswordPagesOptions> = async (app, opts) => {
  await app.register(rateLimit, perClientLimit('staff-link-pages', opts.rateLimitPerMin, opts.rateLimits));

  app.setErrorHandler((thrown: FastifyError & { validation?: unknown }, _request, reply) => {
    const error = clientErrorOf(thrown) ?? thrown;
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const details = (error.errors ?? []).map((e) => `<li>${escapeHtml(e.message)}</li>`).join('');
      return sendHtml(reply, error.status, message('Something is not right', `<p>${escapeHtml(error.message)}</p>${details ? `<ul>${details}</ul>` : ''}`));
    }
    if (thrown.validation) return sendHtml(reply, 400, message('Something is not right', '<p>The form was incomplete or malformed. Open the link from the e-mail again.</p>'));
    if (thrown.statusCode === 429) return sendHtml(reply, 429, message('Too many attempts', '<p>Wait a minute, then try again.</p>'));
    throw thrown;
  });

  const schema = { hide: true };
  app.get(SET_PASSWORD_PAGE, { config: { public: true }, schema: { ...schema, querystring: TokenQuery } }, async (req, reply) => {
    const token = req.query.token;
    if (!token) return sendHtml(reply, 400, message('Link incomplete', '<p>This link has no token. Open the link from the e-mail again, or copy it whole into the address bar.</p>'));
    const form =
      `<form method="post" action="${escapeHtml(SET_PASSWORD_PAGE)}"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
      `<p><label>New password<br><input type="password" name="new_password" required autocomplete="new-password" minlength="${passwordRule.min_length}" maxlength="1024"></label></p>` +
      `<p><small>${escapeHtml(`The password needs ${passwordRule.description}.`)}</small></p>` +
      `<p><button type="submit">Set the password</button></p></form>`;
    return sendHtml(reply, 200, message('Choose your backoffice password', form));
  });

  app.post(SET_PASSWORD_PAGE, { config: { public: true }, schema: { ...schema, body: SetPasswordForm } }, async (req, reply) => {
    assertSameOrigin(req, opts.publicUrl);
    await opts.auth.setPasswordByLink(req.body, actorOf(req));
    return sendHtml(reply, 200, message('Password set', '<p>Your backoffice password is set. <a href="/backoffice/login">Log in</a> with it.</p>'));
  });
};

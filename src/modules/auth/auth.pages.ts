import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { clientErrorOf } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors.js';
import { assertSameOrigin, escapeHtml, htmlPage, sendHtml } from '../../platform/http/html.js';
import { StrictObject } from '../../platform/http/schemas.js';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import { setSessionCookies } from './auth.cookies.js';
import type { AuthService } from './auth.service.js';
import type { ChangeEmailService } from './change-email.service.js';
import { passwordRule } from '../../platform/password-policy.js';
import { enforceSecurityAudit, SecurityAction, type SecurityEvents } from './security-events.js';

export interface AuthPagesOptions {
  auth: AuthService;
  changeEmail: ChangeEmailService;
  events: SecurityEvents;
  publicUrl: string;
  cookieSecure: boolean;
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

const Token = Type.String({ minLength: 1, maxLength: 200 });
const TokenQuery = Type.Object({ token: Type.Optional(Token) });
const TokenForm = StrictObject({ token: Token });
const ResetForm = StrictObject({ token: Token, new_password: Type.String({ minLength: 1, maxLength: 1024 }) });

/** The page a link lands on: the token from the URL in a hidden field, one button that POSTs it. */
function form(action: string, token: string, button: string, extra = ''): string {
  return `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="token" value="${escapeHtml(token)}">${extra}<p><button type="submit">${escapeHtml(button)}</button></p></form>`;
}

function message(title: string, text: string): string {
  return htmlPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

const missingToken = () => message('Link incomplete', 'This link has no token. Open the link from the e-mail again, or copy it whole into the address bar.');

/**
 * Where the links of the e-mails land when no FRONTEND_URL is set (the embedded default): small
 * server-rendered pages that complete the step, like the sandbox payment pages. The GET only
 * shows a form (mail scanners and link previews that fetch the link change nothing); its POST
 * does the step through the same service call as the API. Hidden from the OpenAPI document:
 * the API routes (/api/auth/register/verify, /api/auth/password/reset,
 * /api/auth/profile/change-email/confirm-new) are the contract.
 */
export const authPages: FastifyPluginAsyncTypebox<AuthPagesOptions> = async (app, opts) => {
  const { auth, changeEmail, publicUrl, cookieSecure } = opts;
  enforceSecurityAudit(app, opts.events);
  await app.register(rateLimit, perClientLimit('link-pages', opts.rateLimitPerMin, opts.rateLimits));

  // Errors of these routes are pages too (a wrong token, a weak password, a missing session).
  app.setErrorHandler((thrown: FastifyError & { validation?: unknown }, _request, reply) => {
    const error = clientErrorOf(thrown) ?? thrown;
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const details = (error.errors ?? []).map((e) => `<li>${escapeHtml(e.message)}</li>`).join('');
      return sendHtml(reply, error.status, htmlPage('Something is not right', `<h1>Something is not right</h1><p>${escapeHtml(error.message)}</p>${details ? `<ul>${details}</ul>` : ''}`));
    }
    if (thrown.validation) return sendHtml(reply, 400, message('Something is not right', 'The form was incomplete or malformed. Open the link from the e-mail again.'));
    if (thrown.statusCode === 429) return sendHtml(reply, 429, message('Too many attempts', 'Wait a minute, then try again.'));
    throw thrown;
  });

  const hidden = { hide: true };
  const pageConfig = { public: true };

  // Registration: confirm the e-mail address.
  app.get('/auth/verify-email', { config: pageConfig, schema: { ...hidden, querystring: TokenQuery } }, async (req, reply) => {
    const token = req.query.token;
    if (!token) return sendHtml(reply, 400, missingToken());
    return sendHtml(reply, 200, htmlPage('Confirm your e-mail address', `<h1>Confirm your e-mail address</h1><p>One click activates your account.</p>${form('/auth/verify-email', token, 'Confirm my e-mail address')}`));
  });

  app.post('/auth/verify-email', { config: { ...pageConfig, securityEvent: SecurityAction.emailVerified }, schema: { ...hidden, body: TokenForm } }, async (req, reply) => {
    assertSameOrigin(req, publicUrl);
    await auth.verifyRegistration(req.body.token);
    return sendHtml(reply, 200, message('E-mail address confirmed', 'Your account is active: you can log in now.'));
  });

  // Password reset: choose a new password.
  app.get('/auth/reset-password', { config: pageConfig, schema: { ...hidden, querystring: TokenQuery } }, async (req, reply) => {
    const token = req.query.token;
    if (!token) return sendHtml(reply, 400, missingToken());
    const field = `<p><label>New password<br><input type="password" name="new_password" required autocomplete="new-password" minlength="${passwordRule.min_length}" maxlength="1024"></label></p><p><small>${escapeHtml(`The password needs ${passwordRule.description}.`)}</small></p>`;
    return sendHtml(reply, 200, htmlPage('Choose a new password', `<h1>Choose a new password</h1>${form('/auth/reset-password', token, 'Set the new password', field)}`));
  });

  app.post('/auth/reset-password', { config: { ...pageConfig, securityEvent: SecurityAction.passwordReset }, schema: { ...hidden, body: ResetForm } }, async (req, reply) => {
    assertSameOrigin(req, publicUrl);
    await auth.resetPassword(req.body);
    return sendHtml(reply, 200, message('Password changed', 'Your password was changed and every session was logged out. Log in with the new password.'));
  });

  // E-mail change, last step: needs the customer's session in this browser, like the API route.
  app.get('/account/change-email/confirm', { config: { ...pageConfig, optionalSession: true }, schema: { ...hidden, querystring: TokenQuery } }, async (req, reply) => {
    const token = req.query.token;
    if (!token) return sendHtml(reply, 400, missingToken());
    if (!req.customer) return sendHtml(reply, 401, message('Log in first', 'Log in to your account in this browser, then open the link from the e-mail again.'));
    return sendHtml(reply, 200, htmlPage('Confirm your new e-mail address', `<h1>Confirm your new e-mail address</h1><p>Your other sessions will be logged out.</p>${form('/account/change-email/confirm', token, 'Confirm the new address')}`));
  });

  app.post('/account/change-email/confirm', { config: { ...pageConfig, optionalSession: true, securityEvent: SecurityAction.emailChanged }, schema: { ...hidden, body: TokenForm } }, async (req, reply) => {
    assertSameOrigin(req, publicUrl);
    const me = req.customer;
    if (!me) return sendHtml(reply, 401, message('Log in first', 'Log in to your account in this browser, then open the link from the e-mail again.'));
    const result = await changeEmail.confirmNew(me.personId ?? me.customerId, me.sessionId, req.body.token);
    setSessionCookies(reply, result.session, cookieSecure);
    return sendHtml(reply, 200, htmlPage('E-mail address changed', `<h1>E-mail address changed</h1><p>Your account's e-mail address is now <b>${escapeHtml(result.email)}</b>.</p>`));
  });
};

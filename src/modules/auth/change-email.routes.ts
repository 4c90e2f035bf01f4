import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { personalOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { setSessionCookies } from './auth.cookies.js';
import { otpSentView, stepTokenView } from './auth.present.js';
import { CodeBody, EmailChanged, OtpSent, SendNewBody, StepToken, TokenBody } from './auth.schemas.js';
import type { ChangeEmailService } from './change-email.service.js';
import { SecurityAction } from './security-events.js';

const tags = ['Change e-mail'];

/** /api/auth/profile/change-email: the four steps, all with the session cookies. */
export const changeEmailRoutes: FastifyPluginAsyncTypebox<{ changeEmail: ChangeEmailService; cookieSecure: boolean }> = async (app, { changeEmail, cookieSecure }) => {
  app.post(
    '/profile/change-email/request',
    { config: { securityEvent: SecurityAction.emailChangeRequested }, schema: { tags, summary: 'Step 1: mail a 6-digit code (10 minutes) to the current address', response: { 200: Envelope(OtpSent), ...errorResponses(401, 429) } } },
    async (req) => ({ message: 'A code was sent to your current e-mail address', data: otpSentView(await changeEmail.request(personalOf(req).customerId)) }),
  );

  app.post(
    '/profile/change-email/verify-old',
    { config: { securityEvent: false }, schema: { tags, summary: 'Step 2: the code gives an intermediate token (15 minutes)', body: CodeBody, response: { 200: Envelope(StepToken), ...errorResponses(400, 401, 429) } } },
    async (req) => ({ message: 'Code accepted', data: stepTokenView(await changeEmail.verifyOld(personalOf(req).customerId, req.body.code.trim())) }),
  );

  app.post(
    '/profile/change-email/send-new',
    { config: { securityEvent: false }, schema: { tags, summary: 'Step 3: mail a confirmation link (24 hours, single use) to the new address', body: SendNewBody, response: { 200: MessageOnly, ...errorResponses(400, 401, 409, 429) } } },
    async (req) => {
      await changeEmail.sendNew(personalOf(req).customerId, req.body);
      return { message: 'A confirmation link was sent to the new address', data: null };
    },
  );

  app.post(
    '/profile/change-email/confirm-new',
    {
      config: { securityEvent: SecurityAction.emailChanged },
      schema: {
        tags,
        summary: 'Step 4: the link token replaces the address; new cookies for this session, other sessions end',
        body: TokenBody,
        response: { 200: Envelope(EmailChanged), ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (req, reply) => {
      const me = personalOf(req);
      const result = await changeEmail.confirmNew(me.customerId, me.sessionId, req.body.token);
      setSessionCookies(reply, result.session, cookieSecure);
      return { message: 'Your e-mail address was changed', data: { email: result.email } };
    },
  );
};

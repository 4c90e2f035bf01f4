import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { personalOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { generatedSecretView, recoveryCodesView, recoveryListView, stepTokenView } from './auth.present.js';
import { CodeBody, GeneratedSecret, RecoveryCodes, RecoveryList, SudoBody, SudoHeaders, SudoResult } from './auth.schemas.js';
import { SecurityAction } from './security-events.js';
import type { TwoFactorService } from './two-factor.service.js';

const tags = ['Two-factor authentication'];

/** /api/auth/profile: sudo mode and 2FA management (all need X-Access-Token but sudo itself). */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<{ twoFactor: TwoFactorService }> = async (app, { twoFactor }) => {
  /** The caller, after checking the sudo token of the X-Access-Token header. */
  const sudoCaller = (req: FastifyRequest) => {
    const me = personalOf(req);
    const header = req.headers['x-access-token'];
    twoFactor.requireSudo(me.customerId, me.sessionId, typeof header === 'string' ? header : undefined);
    return me;
  };

  app.post(
    '/profile/sudo',
    {
      config: { securityEvent: SecurityAction.sudoGranted },
      schema: {
        tags,
        summary: 'Re-authenticate for 5 minutes: returns the X-Access-Token value',
        description: 'password, plus code while 2FA is on. The token is bound to the current session.',
        body: SudoBody,
        response: { 200: Envelope(SudoResult), ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      const me = personalOf(req);
      return { message: 'Sudo mode granted', data: stepTokenView(await twoFactor.sudo(me.customerId, me.sessionId, req.body)) };
    },
  );

  app.post(
    '/profile/2fa/generate-code',
    { config: { securityEvent: false }, schema: { tags, summary: 'New TOTP secret (pending until enable)', headers: SudoHeaders, response: { 200: Envelope(GeneratedSecret), ...errorResponses(401, 403, 409, 429) } } },
    async (req) => ({ message: 'Scan the QR code, then enable with a code', data: generatedSecretView(await twoFactor.generate(sudoCaller(req).customerId)) }),
  );

  app.post(
    '/profile/2fa/enable',
    { config: { securityEvent: SecurityAction.twoFactorEnabled }, schema: { tags, summary: 'Turn 2FA on with a code of the pending secret; returns 10 recovery codes once', headers: SudoHeaders, body: CodeBody, response: { 200: Envelope(RecoveryCodes), ...errorResponses(400, 401, 403, 409, 429) } } },
    async (req) => ({ message: 'Two-factor authentication is on: keep the recovery codes safe', data: recoveryCodesView(await twoFactor.enable(sudoCaller(req).customerId, req.body.code)) }),
  );

  app.post(
    '/profile/2fa/disable',
    { config: { securityEvent: SecurityAction.twoFactorDisabled }, schema: { tags, summary: 'Turn 2FA off with a current code', headers: SudoHeaders, body: CodeBody, response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 409, 429) } } },
    async (req) => {
      await twoFactor.disable(sudoCaller(req).customerId, req.body.code);
      return { message: 'Two-factor authentication is off', data: null };
    },
  );

  app.get(
    '/profile/2fa/recovery',
    { schema: { tags, summary: 'How many recovery codes remain (hints only)', headers: SudoHeaders, response: { 200: Envelope(RecoveryList), ...errorResponses(401, 403, 429) } } },
    async (req) => ({ message: 'OK', data: recoveryListView(await twoFactor.recoveryList(sudoCaller(req).customerId)) }),
  );

  app.post(
    '/profile/2fa/recovery/regenerate',
    { config: { securityEvent: SecurityAction.recoveryCodesRegenerated }, schema: { tags, summary: 'A new set of 10 recovery codes; the old set stops working', headers: SudoHeaders, response: { 200: Envelope(RecoveryCodes), ...errorResponses(401, 403, 409, 429) } } },
    async (req) => ({ message: 'New recovery codes: the old ones no longer work', data: recoveryCodesView(await twoFactor.regenerate(sudoCaller(req).customerId)) }),
  );
};

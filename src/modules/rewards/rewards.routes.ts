import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { RedeemBody, RedeemResult, Referral, ReferralClaimBody } from './rewards.schemas.js';
import { redeemedView } from './rewards.present.js';
import type { RewardsService } from './rewards.service.js';

const tags = ['Rewards'];

/** Customer surface (mounted under /api): redeem codes and referrals (docs/decisions.md §9). */
export const rewardsRoutes: FastifyPluginAsyncTypebox<{ rewards: RewardsService }> = async (app, { rewards }) => {
  app.post(
    '/billing/redeem',
    {
      config: { activity: 'redeem_code.redeemed' },
      schema: {
        tags,
        summary: 'Redeem a code for bonus credit (each code once per customer)',
        description: '400 REDEEM_CODE_NOT_FOUND / _INACTIVE / _NOT_YET_VALID / _EXPIRED / _USED_UP; 409 ALREADY_REDEEMED.',
        body: RedeemBody,
        response: { 200: Envelope(RedeemResult), ...errorResponses(400, 401, 409) },
      },
    },
    async (req) => ({ message: 'Code redeemed', data: redeemedView(await rewards.redeem(customerOf(req).customerId, req.body.code)) }),
  );

  app.get(
    '/customer/referral',
    { schema: { tags, summary: 'My referral code, how many customers used it and the bonus it earned', response: { 200: Envelope(Referral), ...errorResponses(401) } } },
    async (req) => ({ message: 'OK', data: await rewards.referral(customerOf(req).customerId) }),
  );

  app.post(
    '/customer/referral/claim',
    {
      config: { activity: 'referral.claimed' },
      schema: {
        tags,
        summary: 'Name the customer who referred me (once, before my first top-up)',
        description: '400 REFERRAL_CODE_NOT_FOUND / OWN_REFERRAL_CODE / REFERRAL_CYCLE / REFERRAL_TOO_LATE; 409 ALREADY_REFERRED.',
        body: ReferralClaimBody,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 409) },
      },
    },
    async (req) => {
      await rewards.claimReferral(customerOf(req).customerId, req.body.code);
      return { message: 'Referral recorded', data: null };
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { RedeemCode, RedeemCodeCreateBody, RedeemCodeParams, RedeemCodePatchBody, RewardSettings, RewardSettingsBody } from './rewards.schemas.js';
import type { RewardsService } from './rewards.service.js';
import { redeemCodeView, settingsView } from './rewards.present.js';

const tags = ['Backoffice rewards'];

/** Backoffice: redeem codes (manage_coupons: Admin Billing) and the reward settings. */
export const rewardsAdminRoutes: FastifyPluginAsyncTypebox<{ rewards: RewardsService }> = async (app, { rewards }) => {
  app.get(
    '/redeem-codes',
    { config: { permission: 'manage_coupons' }, schema: { tags, summary: 'Redeem codes, newest first', querystring: PageQuery, response: { 200: Paginated(RedeemCode), ...errorResponses(400, 401, 403) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await rewards.listCodes(p);
      return paginated('OK', p, { items: page.items.map(redeemCodeView), total: page.total });
    },
  );

  app.post(
    '/redeem-codes',
    {
      config: { permission: 'manage_coupons', audit: 'redeem_code.created' },
      schema: { tags, summary: 'Create a redeem code', body: RedeemCodeCreateBody, response: { 201: Envelope(RedeemCode), ...errorResponses(400, 401, 403, 409) } },
    },
    async (req, reply) => reply.status(201).send({ message: 'Redeem code created', data: redeemCodeView(await rewards.createCode(req.body)) }),
  );

  app.get(
    '/redeem-codes/:id',
    { config: { permission: 'manage_coupons' }, schema: { tags, summary: 'One redeem code', params: RedeemCodeParams, response: { 200: Envelope(RedeemCode), ...errorResponses(400, 401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: redeemCodeView(await rewards.getCode(req.params.id)) }),
  );

  app.patch(
    '/redeem-codes/:id',
    {
      config: { permission: 'manage_coupons', audit: 'redeem_code.updated' },
      schema: { tags, summary: 'Change a redeem code', params: RedeemCodeParams, body: RedeemCodePatchBody, response: { 200: Envelope(RedeemCode), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Redeem code updated', data: redeemCodeView(await rewards.updateCode(req.params.id, req.body)) }),
  );

  app.delete(
    '/redeem-codes/:id',
    {
      config: { permission: 'manage_coupons', audit: 'redeem_code.deleted' },
      schema: { tags, summary: 'Delete a redeem code (it stops working; redemptions are kept)', params: RedeemCodeParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 404) } },
    },
    async (req) => {
      await rewards.removeCode(req.params.id);
      return { message: 'Redeem code deleted', data: null };
    },
  );

  app.get(
    '/rewards/settings',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'The first top-up and referral reward settings', response: { 200: Envelope(RewardSettings), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: settingsView(await rewards.settings()) }),
  );

  app.put(
    '/rewards/settings',
    {
      config: { permission: 'manage_settings', audit: 'reward_settings.updated' },
      schema: { tags, summary: 'Set the reward settings (a percent of 0 turns a reward off)', body: RewardSettingsBody, response: { 200: Envelope(RewardSettings), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Reward settings updated', data: settingsView(await rewards.updateSettings(req.body)) }),
  );
};

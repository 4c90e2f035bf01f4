import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf, riderOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { customerProfileView, customerSummaryView, notificationSettingView, resourceQuotaView } from './customers.present.js';
import { CustomerProfile, CustomerSummary, NotificationPatch, NotificationSetting, ProfilePatch, ResourceQuota } from './customers.schemas.js';
import type { CustomersService } from './customers.service.js';

const tags = ['Customer profile'];

/** What the caller may see here: the money only with billing:read (a technical member, or a token without that scope, sees none). */
const seesOf = (req: Parameters<typeof customerOf>[0]) => ({ money: customerOf(req).may?.('billing:read') ?? false });

/** /api: the customer's own summary, profile, quota and notification settings (customer surface). */
export const customersRoutes: FastifyPluginAsyncTypebox<{ customers: CustomersService }> = async (app, { customers }) => {
  app.get(
    '/inf',
    { config: { authRider: customers.summaryRider }, schema: { tags, summary: 'Who am I: account summary, balances, quotas',
        description: 'The money fields (balances, billing type, rewards, grace) are null, and named in `withheld`, when the caller may not see the money of the account: a member whose role lacks billing:read (technical), or an API token without that scope.', response: { 200: Envelope(CustomerSummary), ...errorResponses(401) } } },
    async (req) => ({
      message: 'OK',
      data: customerSummaryView(await customers.summary(customerOf(req).customerId, undefined, riderOf(req, customers.summaryRider)), seesOf(req)),
    }),
  );

  app.get('/customer/profile', { schema: { tags, summary: 'My profile', response: { 200: Envelope(CustomerProfile), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: customerProfileView(await customers.profile(customerOf(req).customerId), seesOf(req)),
  }));

  app.patch(
    '/customer/profile',
    {
      config: { activity: 'profile.updated' },
      schema: {
        tags,
        summary: 'Update my profile (partial; geographic ids are lookup ids sent as strings)',
        body: ProfilePatch,
        response: { 200: Envelope(CustomerProfile), ...errorResponses(400, 401) },
      },
    },
    async (req) => ({ message: 'Profile updated', data: customerProfileView(await customers.updateProfile(customerOf(req).customerId, req.body), seesOf(req)) }),
  );

  app.get('/customer/resource', { schema: { tags, summary: 'My VM and public IP quota and usage', response: { 200: Envelope(ResourceQuota), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: resourceQuotaView(await customers.resource(customerOf(req).customerId)),
  }));

  app.patch(
    '/customer/profile/notification-setting',
    { config: { activity: 'profile.notification_settings_updated' }, schema: { tags, summary: 'Mail preferences', body: NotificationPatch, response: { 200: Envelope(NotificationSetting), ...errorResponses(400, 401) } } },
    async (req) => ({ message: 'Notification settings updated', data: notificationSettingView(await customers.updateNotificationSetting(customerOf(req).customerId, req.body)) }),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import type { BillingUsageService } from './billing-usage.service.js';
import { BillingUsage, ChargingSettingsBody, ChargingSettingsView } from './charging.schemas.js';

/** /api/billing/usage: the customer's running resources, burn rate and runway. */
export const chargingRoutes: FastifyPluginAsyncTypebox<{ usage: BillingUsageService }> = async (app, { usage }) => {
  app.get(
    '/usage',
    {
      schema: {
        tags: ['Billing'],
        summary: 'My running resources, what they cost per hour, and how many hours my balance lasts (runway)',
        response: { 200: Envelope(BillingUsage), ...errorResponses(401) },
      },
    },
    async (req) => ({ message: 'OK', data: await usage.usageOf(customerOf(req).customerId) }),
  );
};

/** /api/backoffice/setting/charging: runway and low-balance thresholds, postpaid due days and grace. */
export const chargingAdminRoutes: FastifyPluginAsyncTypebox<{ usage: BillingUsageService }> = async (app, { usage }) => {
  const tags = ['Backoffice settings'];
  app.get(
    '/setting/charging',
    {
      config: { permission: 'view_settings' },
      schema: { tags, summary: 'Charging thresholds', response: { 200: Envelope(ChargingSettingsView), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: await usage.settings() }),
  );
  app.put(
    '/setting/charging',
    {
      config: { permission: 'manage_settings', audit: 'settings.charging_updated' },
      schema: {
        tags,
        summary: 'Change the charging thresholds (runway warning, low-balance notice, postpaid due days and overdue grace)',
        body: ChargingSettingsBody,
        response: { 200: Envelope(ChargingSettingsView), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'Charging settings updated', data: await usage.updateSettings(req.body) }),
  );
};

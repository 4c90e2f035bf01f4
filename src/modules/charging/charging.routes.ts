import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, PageQuery, Paginated } from '../../platform/http/schemas.js';
import type { BillingUsageService } from './billing-usage.service.js';
import type { ChargingService } from './charging.service.js';
import { failureView } from './charging.present.js';
import { BillingUsage, ChargedHour, ChargeFailure, ChargeFailureQuery, ChargingSettingsBody, ChargingSettingsView, CustomerIdPath } from './charging.schemas.js';

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

  app.get(
    '/usage/hours',
    {
      schema: {
        tags: ['Billing'],
        summary: 'My charged hours, newest first, each with the lines it charged (one per resource meter and part of the hour)',
        querystring: PageQuery,
        response: { 200: Paginated(ChargedHour), ...errorResponses(400, 401) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      return paginated('OK', p, await usage.chargedHours(customerOf(req).customerId, p));
    },
  );
};

/**
 * /api/backoffice/setting/charging: runway and low-balance thresholds, postpaid due days and grace;
 * /api/backoffice/billing/charge-failures: the customers the hourly charge set aside.
 */
export const chargingAdminRoutes: FastifyPluginAsyncTypebox<{ usage: BillingUsageService; charging: ChargingService }> = async (app, { usage, charging }) => {
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

  app.get(
    '/billing/charge-failures',
    {
      config: { permission: 'view_transactions' },
      schema: {
        tags: ['Backoffice billing'],
        summary: 'Customers the hourly charge set aside because charging them failed (default), or, with resolved=true, those charged again since',
        description:
          'Every other customer is charged as usual; a customer set aside is retried alone, from the first hour not charged, at each hourly run once next_retry_at has passed (1 h, doubling, at most a day).',
        querystring: ChargeFailureQuery,
        response: { 200: Paginated(ChargeFailure), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await charging.listFailures(req.query.resolved ?? false, p);
      return paginated('OK', p, { items: page.items.map(failureView), total: page.total });
    },
  );

  app.post(
    '/billing/charge-failures/:customer_id/retry',
    {
      config: { permission: 'manage_balance', audit: 'billing.charge_retried' },
      schema: {
        tags: ['Backoffice billing'],
        summary: "Charge a customer set aside now (once the cause is fixed): their hours from the first one not charged; answers the failure, resolved or with the new error",
        params: CustomerIdPath,
        response: { 200: Envelope(ChargeFailure), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => ({ message: 'Charge retried', data: failureView(await charging.retryCustomer(req.params.customer_id)) }),
  );
};

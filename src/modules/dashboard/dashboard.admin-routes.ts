import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { customerInsightView, ipOccupationView, moneyTrendView, revenueView, vmDistributionView } from './dashboard.present.js';
import { CustomerInsight, IpOccupation, MoneyTrend, RevenueTrend, VmDistribution, VmDistributionQuery } from './dashboard.schemas.js';
import type { DashboardService } from './dashboard.service.js';

const tags = ['Backoffice: dashboard'];
const permission = 'view_dashboard';

/** /api/backoffice/dashboard (docs/api.md, "Dashboard"): aggregates for staff holding view_dashboard. */
export const dashboardAdminRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/customer/insight',
    {
      config: { permission },
      schema: {
        tags,
        summary: 'Customers, active wallet balance, VMs, customers who deposited this month',
        response: { 200: Envelope(CustomerInsight), ...errorResponses(401, 403) },
      },
    },
    async () => ({ message: 'OK', data: customerInsightView(await dashboard.customerInsight()) }),
  );

  app.get(
    '/billing/revenue',
    {
      config: { permission },
      schema: {
        tags,
        summary: 'What the platform earned on paid invoices, with the trend of the last 12 months; the gateway fees apart',
        description:
          'Revenue is what the platform keeps of paid invoices (today: top-up invoices, their amount without the payment fee, in the month of paid_at). The fees customers paid to the payment methods are in gateway_fees, never in the revenue. Months are calendar months of PLATFORM_TIME_ZONE.',
        response: { 200: Envelope(RevenueTrend), ...errorResponses(401, 403) },
      },
    },
    async () => ({ message: 'OK', data: revenueView(await dashboard.revenue()) }),
  );

  app.get(
    '/billing/deposit',
    {
      config: { permission },
      schema: {
        tags,
        summary: 'Deposit totals with the trend of the last 12 months',
        description: 'Deposits are top-up credits in the wallet ledger (BalanceLogAdd, real money, in the month they were credited); bonus credit is not a deposit.',
        response: { 200: Envelope(MoneyTrend), ...errorResponses(401, 403) },
      },
    },
    async () => ({ message: 'OK', data: moneyTrendView(await dashboard.deposits()) }),
  );

  app.get(
    '/hv/total-vm',
    {
      config: { permission },
      schema: {
        tags,
        summary: 'VMs by RAM, CPU or OS, optionally in one location',
        querystring: VmDistributionQuery,
        response: { 200: Envelope(VmDistribution), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'OK', data: vmDistributionView(await dashboard.vmDistribution(req.query.group_by ?? 'ram', req.query.location_id)) }),
  );

  app.get(
    '/hv/ip-occupation',
    {
      config: { permission },
      schema: { tags, summary: 'Public IP addresses rented versus available, per location', response: { 200: Envelope(IpOccupation), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: ipOccupationView(await dashboard.ipOccupation()) }),
  );
};

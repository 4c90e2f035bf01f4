import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { metricPointView, trafficMonthView } from './metrics.present.js';
import type { MetricsQueries, VmSeries } from './metrics.queries.js';
import { VmMetrics, VmMetricsParams, VmMetricsQuery, VmTraffic, type MetricRange } from './metrics.schemas.js';

const seriesView = (s: VmSeries) => ({
  vm_id: s.vm.id,
  range: s.range,
  resolution_seconds: s.resolutionSeconds,
  from: s.from.toISOString(),
  to: s.to.toISOString(),
  memory_total_bytes: s.vm.memoryMb * 1_048_576,
  vcpus: s.vm.cpu,
  points: s.points.map(metricPointView),
});

const SERIES = {
  summary: "A VM's CPU, memory, disk and network graphs over the last hour, day, week or month",
  description:
    'Sampled from the hypervisor once a minute while the VM runs. 1h gives a point a minute, 24h one per 5 minutes, 7d and 30d one per hour; the last point is the current period so far. Rates are per second, averaged over the minutes of the period the VM was sampled in.',
};
const TRAFFIC = {
  summary: "A VM's network traffic per calendar month (UTC), in and out, all its NICs together",
  description: 'Counted from the same samples as the graphs; kept 13 months.',
};

/** /api/compute/vm/:id/metrics and /traffic (docs/api.md, "Metrics of a VM"). */
export const metricsRoutes: FastifyPluginAsyncTypebox<{ queries: MetricsQueries }> = async (app, { queries }) => {
  const tags = ['Compute'];
  app.get(
    '/vm/:id/metrics',
    { schema: { tags, ...SERIES, params: VmMetricsParams, querystring: VmMetricsQuery, response: { 200: Envelope(VmMetrics), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: seriesView(await queries.series(customerOf(req).customerId, req.params.id, (req.query.range ?? '24h') as MetricRange)) }),
  );
  app.get(
    '/vm/:id/traffic',
    { schema: { tags, ...TRAFFIC, params: VmMetricsParams, response: { 200: Envelope(VmTraffic), ...errorResponses(401, 404) } } },
    async (req) => {
      const t = await queries.traffic(customerOf(req).customerId, req.params.id);
      return { message: 'OK', data: { vm_id: t.vm.id, months: t.months.map(trafficMonthView) } };
    },
  );
};

/** /api/backoffice/compute/vm/:id/metrics and /traffic: the same for any customer's VM. */
export const metricsAdminRoutes: FastifyPluginAsyncTypebox<{ queries: MetricsQueries }> = async (app, { queries }) => {
  const tags = ['Backoffice: compute'];
  app.get(
    '/vm/:id/metrics',
    {
      config: { permission: 'view_compute' },
      schema: { tags, ...SERIES, params: VmMetricsParams, querystring: VmMetricsQuery, response: { 200: Envelope(VmMetrics), ...errorResponses(400, 401, 403, 404) } },
    },
    async (req) => {
      return { message: 'OK', data: seriesView(await queries.series(undefined, req.params.id, (req.query.range ?? '24h') as MetricRange)) };
    },
  );
  app.get(
    '/vm/:id/traffic',
    { config: { permission: 'view_compute' }, schema: { tags, ...TRAFFIC, params: VmMetricsParams, response: { 200: Envelope(VmTraffic), ...errorResponses(401, 403, 404) } } },
    async (req) => {
      const t = await queries.traffic(undefined, req.params.id);
      return { message: 'OK', data: { vm_id: t.vm.id, months: t.months.map(trafficMonthView) } };
    },
  );
};

import type { Metrics } from '../../integrations/datacenter/index.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { MetricsQueries, type VmLookup } from './metrics.queries.js';
import { MetricsReader } from './metrics.reader.js';
import { MetricsRepository } from './metrics.repository.js';
import { metricsAdminRoutes, metricsRoutes } from './metrics.routes.js';
import { MetricsCollector } from './metrics.service.js';

export interface MetricsDeps {
  /** the datacenter's Metrics capability */
  metrics: Metrics;
  /** the VM a caller may read (compute) */
  compute: VmLookup;
}

/** VM metrics: sampled every minute, rolled up per 5 minutes and hour, graphs and monthly traffic for customers and staff. */
export function createMetricsModule(p: Platform, deps: MetricsDeps) {
  const repo = new MetricsRepository();
  const metricsCollector = new MetricsCollector(p.db, repo, deps.metrics, p.clock, p.log);
  const metricsQueries = new MetricsQueries(p.db, repo, deps.compute, p.clock);
  const metricsReader = new MetricsReader(p.db);
  return {
    services: { metricsCollector, metricsQueries, metricsReader },
    jobs: [metricsCollector.collectJob, metricsCollector.retentionJob],
    routes: [mount('backoffice', metricsAdminRoutes, { prefix: '/compute', queries: metricsQueries }), mount('customer', metricsRoutes, { prefix: '/api/compute', queries: metricsQueries })],
  } satisfies BuiltModule;
}

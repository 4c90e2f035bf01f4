export { MetricsReader, METRIC_NAMES, isMetricName, type MetricName, type MinutePoint } from './metrics.reader.js';
export { MetricsCollector, KEEP as METRICS_KEPT, partitionOf, type CollectRun, type RetentionRun } from './metrics.service.js';
export { MetricsQueries, RANGES as METRIC_RANGE_PLANS } from './metrics.queries.js';
export { amountsBetween, restarted, type StoredCounters, type MinuteAmounts } from './metrics.points.js';
export { METRIC_RANGES, type MetricRange } from './metrics.schemas.js';
export { createMetricsModule } from './metrics.module.js';

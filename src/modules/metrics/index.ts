export { MetricsReader, METRIC_NAMES, isMetricName, type MetricName, type MinutePoint } from './metrics.reader.js';

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../errors.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface MetricsAccess {
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** Without a token, /metrics is public outside production and not served in production. */
  production: boolean;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function hasBearer(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Request count and latency per route (the route pattern, never the raw URL, to bound cardinality). */
export function registerHttpMetrics(app: FastifyInstance, registry: Registry, access: MetricsAccess): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const total = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  // The labelled series of each (method, route, status), looked up once: prom-client would hash the labels at every observation.
  const series = new Map<string, { duration: Histogram.Internal<string>; total: Counter.Internal }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      s = { duration: duration.labels(labels), total: total.labels(labels) };
      series.set(key, s);
    }
    s.duration.observe(reply.elapsedTime / 1000);
    s.total.inc();
    done();
  });
  if (!access.token && access.production) {
    // not served: 404 like an unknown route, which the console's catch-all page would otherwise answer
    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => reply.callNotFound());
    return;
  }
  const token = access.token;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (token && !hasBearer(req, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new UnauthenticatedError('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

/**
 * A gauge read at scrape time (from the database), so every API process reports the same value
 * whichever process did the work. A failing read keeps the last value (the scrape still answers).
 */
export function registerReadGauge(registry: Registry, def: { name: string; help: string; read: () => Promise<number> }): void {
  new Gauge({
    name: def.name,
    help: def.help,
    registers: [registry],
    async collect() {
      try {
        this.set(await def.read());
      } catch {
        /* the database is unreachable: /metrics still answers, with the last value */
      }
    },
  });
}

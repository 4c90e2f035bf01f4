import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { lte, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { queryRows, type Database } from '../db/database.js';
import { runPrepared, type PreparedRead } from '../db/prepared.js';
import { defineJob } from '../queue/queue.js';
import { rateLimitCounters } from './rate-limit.tables.js';

type IncrCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** The store interface of @fastify/rate-limit (its `store` option takes a class). */
export interface RateLimitStore {
  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void;
  child(routeOptions: { routeInfo: { method?: string; url?: string } }): RateLimitStore;
}
export type RateLimitStoreClass = new (params: unknown) => RateLimitStore;

/** hitAll's statement, prepared once per connection (it runs on every request made with an API token). */
const HIT_ALL: PreparedRead<{ key: string; hits: number; reset_at: string | Date }> = {
  name: 'rate_limit_hit_all',
  text: `insert into rate_limit_counters as c (key, hits, reset_at)
         select k, 1, $2::timestamptz from jsonb_array_elements_text($1::jsonb) as k order by k
         on conflict (key) do update set
           hits = case when c.reset_at <= $3::timestamptz then 1 else c.hits + 1 end,
           reset_at = case when c.reset_at <= $3::timestamptz then excluded.reset_at else c.reset_at end
         returning key, hits, reset_at`,
  map: (row) => row as { key: string; hits: number; reset_at: string | Date },
};

/**
 * The rate limits' counters in PostgreSQL (PGlite included), so N API processes behind a load
 * balancer share one limit per client instead of each allowing the full amount. Fixed windows:
 * the first hit opens a window of `timeWindow` ms, later hits count in it, the window's end is
 * when the count starts again (Retry-After). One upsert per limited request.
 */
export class PostgresRateLimits {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Adds one hit to `key`'s window (opening a new one when it ended) and returns the count and ms left. */
  async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const now = this.clock.now();
    const resetAt = new Date(now.getTime() + windowMs);
    const [row] = await queryRows<{ hits: number; reset_at: string | Date }>(
      this.db,
      sql`insert into rate_limit_counters as c (key, hits, reset_at)
          values (${key}, 1, ${resetAt.toISOString()}::timestamptz)
          on conflict (key) do update set
            hits = case when c.reset_at <= ${now.toISOString()}::timestamptz then 1 else c.hits + 1 end,
            reset_at = case when c.reset_at <= ${now.toISOString()}::timestamptz then excluded.reset_at else c.reset_at end
          returning hits, reset_at`,
    );
    const ttl = Math.max(0, new Date(row!.reset_at).getTime() - now.getTime());
    return { current: row!.hits, ttl };
  }

  /**
   * Adds one hit to each key in one statement (rows locked in key order, so concurrent callers
   * never wait on each other in a cycle); answers, per key, its count and the ms left in its window.
   */
  async hitAll(keys: readonly string[], windowMs: number): Promise<Map<string, { current: number; ttl: number }>> {
    const now = this.clock.now();
    const resetAt = new Date(now.getTime() + windowMs);
    const rows = await runPrepared(this.db, HIT_ALL, [JSON.stringify([...new Set(keys)].sort()), resetAt.toISOString(), now.toISOString()]);
    return new Map(rows.map((r) => [r.key, { current: r.hits, ttl: Math.max(0, new Date(r.reset_at).getTime() - now.getTime()) }]));
  }

  /** Deletes the counters whose window ended by `at`. */
  async prune(at: Date): Promise<number> {
    const rows = await this.db.delete(rateLimitCounters).where(lte(rateLimitCounters.resetAt, at)).returning({ key: rateLimitCounters.key });
    return rows.length;
  }

  /** A store class for one named limit (its counters never mix with another limit's). */
  storeFor(limitName: string): RateLimitStoreClass {
    const hit = (key: string, windowMs: number) => this.hit(key, windowMs);
    const make = (prefix: string): RateLimitStore => ({
      incr(key, cb, timeWindow) {
        hit(`${prefix}:${key}`, timeWindow).then((r) => cb(null, r), (err: Error) => cb(err));
      },
      child(routeOptions) {
        return make(`${prefix}:${routeOptions.routeInfo.method ?? ''}${routeOptions.routeInfo.url ?? ''}`);
      },
    });
    return class {
      constructor() {
        return make(limitName);
      }
    } as unknown as RateLimitStoreClass;
  }

  readonly pruneJob = defineJob<object>({
    name: 'platform.rate-limit-prune',
    schedule: '*/5 * * * *',
    description: 'Deletes rate-limit counters whose window has ended',
    record: 'failures',
    handler: async (_payload, ctx) => {
      const n = await this.prune(this.clock.now());
      if (n > 0) ctx.log.debug({ deleted: n }, 'rate-limit counters pruned');
    },
  });
}

/**
 * The options of one per-client limit for @fastify/rate-limit: `max` requests per minute per
 * client IP (`request.ip`, which honours TRUST_PROXY; IPv6 grouped by /64, the plugin's default
 * key), counted in PostgreSQL when a store is given, so the limit holds across API processes.
 */
export function perClientLimit(limitName: string, max: number, limits: PostgresRateLimits | undefined): RateLimitPluginOptions {
  return {
    global: true,
    max,
    timeWindow: 60_000,
    ...(limits ? { store: limits.storeFor(limitName) as unknown as RateLimitPluginOptions['store'] } : {}),
  };
}

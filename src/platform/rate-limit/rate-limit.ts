import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { AsyncResource } from 'node:async_hooks';
import { lte } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
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

/** A counter row as the counting statement returns it. */
interface CounterRow {
  key: string;
  hits: number;
  reset_at: string | Date;
}

/**
 * The counting statement: adds `n` hits to each key of a JSON array of {k, n, r} (opening a new
 * window ending at `r` where the last one ended by $2), rows locked in key order, so concurrent
 * callers in other processes never wait on each other in a cycle. Prepared once per connection.
 */
const ADD_HITS: PreparedRead<CounterRow> = {
  name: 'rate_limit_add_hits',
  text: `insert into rate_limit_counters as c (key, hits, reset_at)
         select u.k, u.n, u.r from jsonb_to_recordset($1::jsonb) as u(k text, n int, r timestamptz) order by u.k
         on conflict (key) do update set
           hits = case when c.reset_at <= $2::timestamptz then excluded.hits else c.hits + excluded.hits end,
           reset_at = case when c.reset_at <= $2::timestamptz then excluded.reset_at else c.reset_at end
         returning key, hits, reset_at`,
  map: (row) => row as unknown as CounterRow,
};

/** A caller waiting for its hits to be counted. */
interface WaitingHit {
  keys: readonly string[];
  windowMs: number;
  resolve(counts: Map<string, { current: number; ttl: number }>): void;
  reject(err: unknown): void;
}

/**
 * The rate limits' counters in PostgreSQL (PGlite included), so N API processes behind a load
 * balancer share one limit per client instead of each allowing the full amount. Fixed windows:
 * the first hit opens a window of `timeWindow` ms, later hits count in it, the window's end is
 * when the count starts again (Retry-After).
 *
 * A process has at most one counting statement in flight. Hits that arrive while it runs wait and
 * are counted together by the next one, a key's hits added at once (one row lock per key and
 * statement, however many requests): each caller gets the count its own hit reached, in the order
 * the hits arrived, exactly as if they had been counted one by one. Many requests on one key (one
 * API token on 50 connections) then no longer queue on that key's row lock one statement each.
 */
export class PostgresRateLimits {
  private waiting: WaitingHit[] = [];
  private counting = false;
  /**
   * The async context the counting runs in: the one this was made in, never a caller's (a hit made
   * inside a transaction must not count everyone's hits on that transaction).
   */
  private readonly home = new AsyncResource('rate-limit-counting');

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Adds one hit to `key`'s window (opening a new one when it ended) and returns the count and ms left. */
  async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    return (await this.hitAll([key], windowMs)).get(key)!;
  }

  /** Adds one hit to each key; answers, per key, the count this hit reached and the ms left in its window. */
  hitAll(keys: readonly string[], windowMs: number): Promise<Map<string, { current: number; ttl: number }>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ keys: [...new Set(keys)], windowMs, resolve, reject });
      if (!this.counting) void this.home.runInAsyncScope(() => this.countWaiting());
    });
  }

  /** Counts the waiting hits, one statement at a time, until none wait. */
  private async countWaiting(): Promise<void> {
    this.counting = true;
    try {
      while (this.waiting.length > 0) await this.count(this.waiting.splice(0));
    } finally {
      this.counting = false;
    }
  }

  private async count(batch: WaitingHit[]): Promise<void> {
    const now = this.clock.now();
    const added = new Map<string, { k: string; n: number; r: string }>();
    for (const w of batch) {
      for (const k of w.keys) {
        const a = added.get(k);
        if (a) a.n++;
        else added.set(k, { k, n: 1, r: new Date(now.getTime() + w.windowMs).toISOString() });
      }
    }
    let rows: CounterRow[];
    try {
      rows = await runPrepared(this.db, ADD_HITS, [JSON.stringify([...added.values()]), now.toISOString()]);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    const byKey = new Map(rows.map((r) => [r.key, r]));
    // the batch's hits on a key are its last `n`: the first caller's is the (hits - n + 1)th
    const before = new Map([...added].map(([k, a]) => [k, Number(byKey.get(k)!.hits) - a.n]));
    for (const w of batch) {
      const counts = new Map<string, { current: number; ttl: number }>();
      for (const k of w.keys) {
        const current = before.get(k)! + 1;
        before.set(k, current);
        counts.set(k, { current, ttl: Math.max(0, new Date(byKey.get(k)!.reset_at).getTime() - now.getTime()) });
      }
      w.resolve(counts);
    }
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

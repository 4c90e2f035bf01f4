import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import { AccountLock } from './account-lock/account-lock.js';
import { systemClock, type Clock } from './clock.js';
import { openDatabase } from './db/database.js';
import { EventBus } from './events/event-bus.js';
import { housekeepingJob } from './housekeeping.js';
import { createMetricsRegistry } from './http/metrics.js';
import { IdempotencyStore } from './idempotency/idempotency.js';
import { Lifecycle } from './lifecycle/index.js';
import { Mailer } from './mail/mailer.js';
import type { Platform } from './module.js';
import { JobQueue } from './queue/queue.js';
import { PostgresRateLimits } from './rate-limit/rate-limit.js';
import { RefreshTokens } from './refresh-tokens/refresh-tokens.js';

export interface PlatformOptions {
  clock?: Clock;
  log: Logger;
  /** How often delayed and retried jobs that came due are looked for (default 2 s; tests: faster). */
  jobPollingIntervalSeconds?: number;
  /** How often due schedules are looked for (tests: 1 s; default about 30 s). */
  cronIntervalSeconds?: number;
  /** Whether the worker writes the job schedules (default true; test apps turn them on when they test them). */
  schedules?: boolean;
  /** Apply migrations and seeds on start (default true). */
  migrate?: boolean;
  /** Embedded database: start from this data folder tarball (tests start from a migrated one). */
  pgliteSnapshot?: Blob;
  /** Embedded database: a fresh data folder starts as a copy of this one (platform/db/embedded-template.ts). */
  pgliteTemplate?: string;
}

/**
 * Opens (and migrates) the database and builds the machinery every module shares, with the jobs
 * of that machinery registered. On a failure after the database opened, the database is closed.
 */
export async function buildPlatform(config: Config, opts: PlatformOptions): Promise<{ platform: Platform; metrics: Registry }> {
  const { log } = opts;
  const clock = opts.clock ?? systemClock;
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    waitMs: config.databaseWaitMs,
    log,
    strictTransactions: config.nodeEnv === 'test',
    ...(opts.pgliteSnapshot ? { snapshot: opts.pgliteSnapshot } : {}),
    ...(opts.pgliteTemplate ? { template: opts.pgliteTemplate } : {}),
  });
  try {
    if (opts.migrate !== false) await database.migrate();
    const db = database.db;
    const queue = new JobQueue(database, log, {
      pollingIntervalSeconds: opts.jobPollingIntervalSeconds ?? 2,
      ...(opts.cronIntervalSeconds ? { cronIntervalSeconds: opts.cronIntervalSeconds } : {}),
      ...(opts.schedules === false ? { schedules: false } : {}),
    });
    const events = new EventBus(database, log);
    const mailer = new Mailer(db, queue, clock, log, { smtpUrl: config.smtpUrl, from: config.mailFrom, logBodies: config.nodeEnv === 'development' });
    const idempotency = new IdempotencyStore(db);
    const accountLock = new AccountLock(db, clock);
    const refreshTokens = new RefreshTokens(db, clock);
    const rateLimits = new PostgresRateLimits(db, clock);
    const lifecycle = new Lifecycle(db, queue, clock, log);
    queue.register(mailer.deliverJob, mailer.pruneJob, accountLock.pruneJob, refreshTokens.pruneJob, rateLimits.pruneJob, housekeepingJob({ idempotency, queue, clock }), lifecycle.applyJob, lifecycle.sweepJob);
    const platform: Platform = { config, clock, log, database, db, queue, events, mailer, idempotency, rateLimits, accountLock, refreshTokens, lifecycle };
    return { platform, metrics: createMetricsRegistry() };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}

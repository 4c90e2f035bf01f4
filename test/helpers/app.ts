import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { buildContainer, type Container } from '../../src/container.js';
import type { Clock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { createTestDatabase, embeddedSnapshot, TEST_DB, type TestDatabase, type TestDatabaseKind } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  database: TestDatabase | undefined;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * 'postgres': a fresh database on the real server; 'embedded': in-memory PGlite started from a
   * migrated snapshot. Default: TEST_DB, so each suite runs on both (scripts/run-tests.mjs).
   */
  db?: TestDatabaseKind;
  env?: Record<string, string>;
  clock?: Clock;
  /** Start the job workers in-process (default true). */
  worker?: boolean;
  /**
   * Write the job schedules and let pg-boss fire them, checking every second (default false: a
   * test that does not test the schedules gets no job at a wall-clock minute).
   */
  schedules?: boolean;
  /** A logger of the test's own (to read what the service logs). */
  log?: Logger;
  /** A second process on the database of this app (PostgreSQL only); the database is dropped by its owner. */
  sameDatabaseAs?: TestApp;
  /** Extra routes for tests of the HTTP conventions, added before the app is ready. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** The whole service, as `npm start` builds it, on a database of its own. */
export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const kind = opts.sameDatabaseAs ? 'postgres' : (opts.db ?? TEST_DB);
  const shared = opts.sameDatabaseAs?.database;
  if (opts.sameDatabaseAs && !shared) throw new Error('sameDatabaseAs needs an app on PostgreSQL');
  const database = shared ? undefined : kind === 'embedded' ? undefined : await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-test-')),
    DATABASE_URL: shared?.url ?? database?.url ?? 'memory://',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    AUTH_RATE_LIMIT_PER_MIN: '100000',
    WEBHOOK_RATE_LIMIT_PER_MIN: '100000',
    // the API alone (its own link pages and payment result page); the console's tests turn it on
    CONSOLE: 'off',
    // a second process of the same deployment shares its secrets (cookies of one work on the other)
    ...(opts.sameDatabaseAs
      ? { JWT_SECRET: opts.sameDatabaseAs.container.config.jwtSecret, ENCRYPTION_KEY: opts.sameDatabaseAs.container.config.encryptionKey.toString('hex') }
      : {}),
    ...opts.env,
  });
  const log = opts.log ?? createLogger(config.logLevel);
  const container = await buildContainer(config, {
    log,
    clock: opts.clock,
    jobPollingIntervalSeconds: 0.5,
    ...(opts.schedules ? { cronIntervalSeconds: 1 } : { schedules: false }),
    ...(kind === 'embedded' ? { pgliteSnapshot: await embeddedSnapshot() } : {}),
  });
  const app = await buildApp(container);
  await opts.extend?.(app);
  await app.ready();
  if (opts.worker !== false) await container.startWorker();
  return {
    app,
    container,
    database,
    async close() {
      await app.close();
      await container.close();
      await database?.drop();
      // a query that bypassed its transaction fails the test even when the code swallowed the error
      const bypasses = container.database.bypasses;
      if (bypasses.length > 0) throw new Error(`${bypasses.length} queries bypassed their open transaction:\n${bypasses.map((e) => e.stack).join('\n')}`);
    },
  };
}

/**
 * Waits until the job queue has nothing left to do: no job of `queues` (default: every queue) is
 * waiting, running or due for a retry (`queues: []` checks none), and the given job ids have run. Use it instead of sleeping
 * to prove that a job did NOT do something: a wrongly queued job has run by the time this returns.
 */
export async function queueDrained(t: TestApp, opts: { queues?: string[]; ids?: (string | null)[] } = {}, timeoutMs = 15_000): Promise<void> {
  const ids = (opts.ids ?? []).filter((id): id is string => typeof id === 'string');
  await eventually(async () => {
    const [busy] = await queryRows<{ n: number }>(
      t.container.db,
      opts.queues
        ? sql`select count(*)::int as n from pgboss.job where state in ('created', 'active', 'retry') and name = any(${`{${opts.queues.join(',')}}`}::text[])`
        : sql`select count(*)::int as n from pgboss.job where state in ('created', 'active', 'retry')`,
    );
    if (busy!.n > 0) return false;
    if (ids.length === 0) return true;
    const [unrun] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from pgboss.job where id = any(${`{${ids.join(',')}}`}::uuid[]) and state in ('created', 'active')`);
    return unrun!.n === 0;
  }, timeoutMs, 50);
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

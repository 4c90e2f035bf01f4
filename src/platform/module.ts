import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { AccountLock } from './account-lock/account-lock.js';
import type { Clock } from './clock.js';
import type { Database, DatabaseHandle } from './db/database.js';
import type { ConstraintMeaning } from './db/errors.js';
import type { EventBus } from './events/event-bus.js';
import type { IdempotencyStore } from './idempotency/idempotency.js';
import type { Mailer } from './mail/mailer.js';
import type { PostgresRateLimits } from './rate-limit/rate-limit.js';
import type { RefreshTokens } from './refresh-tokens/refresh-tokens.js';
import type { Lifecycle, ResourceAdapter } from './lifecycle/index.js';
import type { JobDefinition, JobQueue } from './queue/queue.js';

/**
 * Where a module's routes are mounted (src/app.ts): `public` is open (lookups), `customer` the
 * customer API (session or API token), `backoffice` the staff API under /api/backoffice, `root`
 * the bare server (the sandbox payment pages).
 */
export type Surface = 'public' | 'customer' | 'backoffice' | 'root';

/** One route plugin with its options, ready to be registered on its surface. */
export interface RouteMount {
  surface: Surface;
  register(scope: FastifyInstance): Promise<void>;
}

/**
 * A route plugin and its options, type-checked against each other. The API reads JSON bodies only;
 * `forms: true` is for the server's own HTML pages, whose forms post
 * `application/x-www-form-urlencoded` (the sandbox payment page, the mail-link pages).
 */
export function mount<O extends object>(
  surface: Surface,
  plugin: (instance: any, options: O) => Promise<void>,
  options: O & { prefix?: string },
  how: { forms?: boolean } = {},
): RouteMount {
  return {
    surface,
    async register(scope) {
      if (!how.forms) {
        await scope.register(plugin as FastifyPluginAsync<O>, options);
        return;
      }
      await scope.register(async (pages) => {
        await pages.register(formbody);
        await pages.register(plugin as FastifyPluginAsync<O>, options);
      });
    },
  };
}

/** A number read at each scrape of GET /metrics. */
export interface ReadGauge {
  name: string;
  help: string;
  read: () => Promise<number>;
}

/**
 * What a feature module hands the app besides its services: the container registers the jobs
 * (and their schedules), the resource lifecycle's adapters and the gauges in one loop and runs the
 * seeds in another, and the app mounts the routes and learns the constraint meanings in one loop each.
 */
export interface ModuleParts {
  readonly jobs?: readonly JobDefinition<any>[];
  /** adapters of the resource lifecycle (src/platform/lifecycle), one per resource kind */
  readonly resources?: readonly ResourceAdapter[];
  readonly routes?: readonly RouteMount[];
  /** what a lost race on a named constraint means to the client (platform/db/errors.ts) */
  readonly constraints?: Readonly<Record<string, ConstraintMeaning>>;
  readonly gauges?: readonly ReadGauge[];
  /**
   * Reference data and defaults, idempotent: run in the order the modules were built, once per
   * build of the code on a database (platform/db/fingerprints.ts).
   */
  readonly seed?: () => Promise<unknown>;
}

/** A built module: its services (named as in the container's `services`) and its parts. */
export interface FeatureModule<S extends object> extends ModuleParts {
  readonly services: S;
}

/** What a factory returns: a module, and what else other modules are given from it (named). */
export type BuiltModule = FeatureModule<object> & { readonly [other: string]: unknown };

/** The shared machinery every module factory may use (built by src/container.ts before the modules). */
export interface Platform {
  readonly config: Config;
  readonly clock: Clock;
  readonly log: Logger;
  readonly database: DatabaseHandle;
  readonly db: Database;
  readonly queue: JobQueue;
  readonly events: EventBus;
  readonly mailer: Mailer;
  readonly idempotency: IdempotencyStore;
  /** the per-IP rate limits' counters, shared by every API process */
  readonly rateLimits: PostgresRateLimits;
  /** one account-lock rule for customers and staff */
  readonly accountLock: AccountLock;
  /** one refresh-token mechanism for customers and staff */
  readonly refreshTokens: RefreshTokens;
  /** desired against applied state of everything at the datacenter and object storage */
  readonly lifecycle: Lifecycle;
}

/**
 * A dependency built after the one that uses it: a loop of instances between modules whose imports
 * do not loop (compute shows a VM's private addresses; networks, built after compute, holds them).
 * The object answers for `get()` at each use; used before `get()` can answer (during the build),
 * it throws, so a wire made too early fails loudly at start-up instead of doing nothing.
 */
export function builtLater<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const target = get();
      const value = (target as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

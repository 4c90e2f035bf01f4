import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { param, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Logger } from 'pino';
import { ambientDatabase, ambientTransaction } from './ambient.js';
import { ConnectionGate, type GateHolder } from './gate.js';
import { installQueryErrorText } from './query-errors.js';

/** The drizzle database, or a transaction on it: repositories take whichever they are given. */
export type Executor = PgDatabase<PgQueryResultHKT>;
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseKind = 'pglite' | 'postgres';

/** Plain SQL access for libraries that bring their own SQL (pg-boss). */
export interface RawSql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export type NotificationHandler = (payload: string) => void;

/** What a listener hears besides notifications: the listening connection's losses and returns. */
export interface ListenHooks {
  /** The listening connection was lost: notifications sent from now on are missed until `onRestored`. */
  onLost?(): void;
  /** Listening again on a new connection (every channel re-LISTENed): whatever was sent meanwhile was missed. */
  onRestored?(): void;
}

export interface DatabaseHandle {
  readonly kind: DatabaseKind;
  /** The root database; inside a transaction it runs every query on that transaction (ambient.ts). */
  readonly db: Database;
  /** Plain SQL; inside a transaction it runs on that transaction too. */
  readonly raw: RawSql;
  /** What has held the connection for longer than the wait bound (the embedded database), for /readyz. */
  wedged(): GateHolder | undefined;
  /**
   * LISTEN on a channel; resolves to an unlisten function. PostgreSQL: one listening connection
   * per process for every channel, opened again (and every channel re-LISTENed) when it is lost.
   */
  listen(channel: string, handler: NotificationHandler, hooks?: ListenHooks): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  /**
   * Runs the seeds unless this database was last seeded with the same `fingerprint`
   * (seedFingerprint; undefined: always). Seeds are idempotent; this only saves their time at a start.
   */
  seedOnce(fingerprint: string | undefined, seed: () => Promise<void>): Promise<void>;
  /** Embedded only: the data folder as an uncompressed tarball, to start other databases from. */
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
}

/**
 * The project's folder: the nearest parent of this module with drizzle/meta/_journal.json, so it
 * is found from the TypeScript sources (src/platform/db) and from the compiled bundle (dist/) alike.
 */
export const projectRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'drizzle/meta/_journal.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('no drizzle/meta/_journal.json above the running module');
    dir = up;
  }
})();

export const migrationsFolder = path.join(projectRoot, 'drizzle');

/**
 * Database routines (functions, triggers) live as whole, idempotent definitions in
 * drizzle/routines/*.sql (CREATE OR REPLACE FUNCTION, DROP TRIGGER IF EXISTS + CREATE TRIGGER) and are
 * applied in file-name order after the migrations on every start, so they are reviewed as code.
 */
export const routinesFolder = path.join(migrationsFolder, 'routines');

function routineFiles(): { name: string; sql: string }[] {
  if (!existsSync(routinesFolder)) return [];
  return readdirSync(routinesFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(routinesFolder, name), 'utf8') }));
}

async function applyRoutines(raw: RawSql): Promise<void> {
  for (const file of routineFiles()) {
    try {
      await raw.executeSql(file.sql);
    } catch (err) {
      throw new Error(`routine ${file.name} failed: ${(err as Error).message}`);
    }
  }
}

/** A hash of the migrations, their journal and the routines: what `migrate()` would apply. */
export function migrationsFingerprint(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) h.update(f).update(readFileSync(path.join(migrationsFolder, f)));
  h.update(readFileSync(path.join(migrationsFolder, 'meta/_journal.json')));
  for (const f of routineFiles()) h.update(f.name).update(f.sql);
  return h.digest('hex');
}

/**
 * Runs `apply` unless the database records that it last ran for exactly this fingerprint (a
 * one-row table in the drizzle schema, next to drizzle's own journal), then records it.
 */
async function onceFor(raw: RawSql, table: 'schema_fingerprint' | 'seed_fingerprint', fingerprint: string, apply: () => Promise<void>): Promise<void> {
  try {
    const { rows } = await raw.executeSql(`SELECT fingerprint FROM drizzle.${table} WHERE id = 1`);
    if (rows[0]?.fingerprint === fingerprint) return;
  } catch {
    // not recorded yet: the table is created below
  }
  await apply();
  await raw.executeSql(`CREATE TABLE IF NOT EXISTS drizzle.${table} (id int PRIMARY KEY CHECK (id = 1), fingerprint text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  await raw.executeSql(
    `INSERT INTO drizzle.${table} (id, fingerprint) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET fingerprint = excluded.fingerprint, applied_at = now()`,
    [fingerprint],
  );
}

/**
 * Runs the migrations and routines unless the database records that exactly these were applied
 * last time: a start on a current database then costs one query instead of re-running every
 * routine (whose first execution compiles PL/pgSQL and loads catalogs, over a second on the
 * embedded database).
 */
function migrateOnce(raw: RawSql, apply: () => Promise<void>): Promise<void> {
  return onceFor(raw, 'schema_fingerprint', migrationsFingerprint(), apply);
}

/**
 * What the seeds of the running code are made of, when that can be known: the compiled bundle
 * `npm start` runs (`codeFile`, dist/server.js), the locked packages (the countries come from
 * i18n-iso-countries), the data files the seeds read (seedDataFiles) and the schema. Undefined for code run as TypeScript
 * through tsx, whose seeds then run at every start.
 */
export function seedFingerprint(codeFile: string): string | undefined {
  if (!codeFile.endsWith('.js')) return undefined;
  const h = createHash('sha256').update(readFileSync(codeFile));
  const lock = path.join(projectRoot, 'package-lock.json');
  if (existsSync(lock)) h.update(readFileSync(lock));
  for (const f of seedDataFiles()) h.update(path.relative(projectRoot, f)).update(readFileSync(f));
  return h.update(migrationsFingerprint()).digest('hex');
}

/** The files seeds read at run time: every file in a `data` folder under src/ (the area lists, say). */
export function seedDataFiles(dir = path.join(projectRoot, 'src'), inData = false): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return seedDataFiles(full, inData || e.name === 'data');
      return inData ? [full] : [];
    });
}

export function migrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => (Number.isSafeInteger(Number(v)) ? Number(v) : v));

export interface OpenOptions {
  /** undefined: embedded under dataDir; memory://; or a postgres:// URL */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** How long a query may wait for a connection before it fails with 503 DATABASE_BUSY. */
  waitMs: number;
  log: Logger;
  /** Embedded only: a data folder tarball (PGlite dumpDataDir) to start from instead of an empty database. */
  snapshot?: Blob;
  /** Embedded only: a data folder (embedded-template.ts) copied into an empty `dataDir` instead of running initdb. */
  template?: string;
  /**
   * PostgreSQL only: how often the listening connection is asked a `SELECT 1`; one not answered
   * by the next ask counts as lost (default LISTENER_HEARTBEAT_MS).
   */
  listenerHeartbeatMs?: number;
}

/**
 * PostgreSQL settings of the embedded database. It is one connection in one process whose data
 * files sit in the OS page cache anyway, so 16 MB of shared buffers (PostgreSQL's default: 128 MB,
 * all of it inside PGlite's WebAssembly heap, which never shrinks) costs no measurable speed and
 * about 110 MB of resident memory less.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** Where the embedded database keeps its files under DATA_DIR. */
export const embeddedDataFolder = (dataDir: string) => path.join(dataDir, 'pglite');

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  // a failed query's message is the database's words, never the statement (query-errors.ts)
  installQueryErrorText();
  if (opts.url?.startsWith('postgres')) return openPostgres(opts.url, opts.poolSize ?? 10, opts.waitMs, opts.listenerHeartbeatMs ?? LISTENER_HEARTBEAT_MS);
  return openPglite(opts.url === 'memory://' ? undefined : embeddedDataFolder(opts.dataDir), opts);
}

type PreparedRunner = (name: string, text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
const preparedRunners = new WeakMap<object, PreparedRunner>();

/** How a root database runs a prepared read (platform/db/prepared.ts); undefined for a transaction. */
export function preparedRunnerOf(db: Executor): PreparedRunner | undefined {
  return preparedRunners.get(db);
}

/** Runs raw SQL on the ambient transaction when there is one, else on `root`. */
function ambientRaw(root: RawSql): RawSql {
  return {
    async executeSql(text, values) {
      const tx = ambientTransaction();
      if (!tx) return root.executeSql(text, values);
      return (await tx.execute(rawToSql(text, values))) as unknown as { rows: any[] };
    },
  };
}

/** The application_name of a process's listening connection (pg_stat_activity shows one per process). */
export const LISTENER_APPLICATION_NAME = 'cloud-platform listener';

/**
 * How often a process asks its listening connection whether it is still there. A connection that
 * goes silent without closing (a network partition, a failover that sends no reset) reports no
 * error: without the question the process would keep its settings cache for good.
 */
export const LISTENER_HEARTBEAT_MS = 10_000;

async function openPostgres(url: string, poolSize: number, waitMs: number, heartbeatMs: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: waitMs });
  pool.on('error', () => {
    /* idle client errors are reported by the next query */
  });
  const db = ambientDatabase(drizzlePg({ client: pool }) as unknown as Database);
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  const handlers = new Map<string, Set<NotificationHandler>>();
  const hookSets = new Set<ListenHooks>();
  const dead = new WeakSet<pg.Client>();

  /** A new listening connection with every channel that has handlers LISTENed. */
  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME });
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      dead.add(client);
      await client.end().catch(() => undefined);
      throw err;
    }
    if (dead.has(client)) throw new Error('the listening connection was lost while it was opened');
    return client;
  }

  function listenerClient(): Promise<pg.Client> {
    if (listener) return Promise.resolve(listener);
    connecting ??= connectListener().then(
      (client) => {
        connecting = undefined;
        listener = client;
        return client;
      },
      (err: unknown) => {
        connecting = undefined;
        throw err;
      },
    );
    return connecting;
  }

  /** The listening connection ended, failed (pg_terminate_backend, a restart, the network) or went silent. */
  function lost(client: pg.Client): void {
    if (dead.has(client)) return;
    dead.add(client);
    client.end().catch(() => undefined);
    // a silent peer never acknowledges the end: the socket is dropped rather than left half-open
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    if (listener !== client) return;
    listener = undefined;
    if (closed) return;
    for (const hooks of hookSets) hooks.onLost?.();
    reconnect(0);
  }

  /** Opens the listening connection again, backing off up to 5 s between attempts. */
  function reconnect(attempt: number): void {
    reconnectTimer = setTimeout(
      () => {
        reconnectTimer = undefined;
        if (closed || handlers.size === 0) return;
        listenerClient().then(
          () => {
            for (const hooks of hookSets) hooks.onRestored?.();
          },
          () => reconnect(attempt + 1),
        );
      },
      Math.min(50 * 2 ** attempt, 5000),
    );
    reconnectTimer.unref();
  }

  // the heartbeat: a question still unanswered at the next one means the connection is gone
  let asking: pg.Client | undefined;
  const heartbeat = setInterval(() => {
    const client = listener;
    if (!client) return;
    if (asking === client) return lost(client);
    asking = client;
    client.query('SELECT 1').then(
      () => {
        if (asking === client) asking = undefined;
      },
      () => lost(client),
    );
  }, heartbeatMs);
  heartbeat.unref();

  const raw = ambientRaw({ executeSql: (text, values) => pool.query(text, values as unknown[]) });
  // a named statement: parsed and planned once per pooled connection
  preparedRunners.set(db, (name, text, values) => pool.query({ name, text, values }));
  return {
    kind: 'postgres',
    db,
    raw,
    wedged: () => undefined,
    async listen(channel, handler, hooks) {
      // registered first: a listening connection opened meanwhile LISTENs on it too (twice is harmless)
      let set = handlers.get(channel);
      const first = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      const unlisten = async () => {
        set.delete(handler);
        if (hooks) hookSets.delete(hooks);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await listener?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
        }
      };
      try {
        const client = await listenerClient();
        if (first) await client.query(`LISTEN ${quoteIdent(channel)}`);
      } catch (err) {
        await unlisten();
        throw err;
      }
      if (hooks) hookSets.add(hooks);
      return unlisten;
    },
    migrate: () => migrateOnce(raw, async () => {
      await migratePg(db as never, { migrationsFolder });
      await applyRoutines(raw);
    }),
    seedOnce: (fingerprint, seed) => (fingerprint ? onceFor(raw, 'seed_fingerprint', fingerprint, seed) : seed()),
    dumpDataDir: () => Promise.reject(new Error('only the embedded database has a data folder to dump')),
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(heartbeat);
      const client = listener ?? (await connecting?.catch(() => undefined));
      listener = undefined;
      if (client) dead.add(client);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** The stack where a transaction is opened; formatted (and filtered to our own frames) only when reported. */
function openedHere(): () => string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  const at = new Error();
  Error.stackTraceLimit = limit;
  return () => {
    const frames = (at.stack ?? '').split('\n').slice(1).map((f) => f.trim());
    const ours = frames.filter((f) => !f.includes('node_modules') && !f.includes('platform/db/') && !f.includes('node:'));
    return `transaction opened ${ours.slice(0, 4).join(' <- ') || 'by a library'}`;
  };
}

async function openPglite(dir: string | undefined, opts: OpenOptions): Promise<DatabaseHandle> {
  if (dir) {
    mkdirSync(dir, { recursive: true });
    if (opts.template && readdirSync(dir).length === 0) cpSync(opts.template, dir, { recursive: true });
  }
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    ...(opts.snapshot ? { loadDataDir: opts.snapshot } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
  });
  const gate = new ConnectionGate({
    waitMs: opts.waitMs,
    onTimeout(waitedMs, holder) {
      opts.log.error(
        { waitedMs, heldForMs: holder ? Date.now() - holder.since : undefined, heldBy: holder?.what() },
        `embedded database busy: a query waited ${waitedMs} ms for the one connection and was refused (503); it is held by: ${holder?.what() ?? 'unknown'}`,
      );
    },
  });
  // Everything that reaches PGlite takes its turn at the gate; inside a transaction the
  // statements run on the transaction's own handle and need no turn.
  const gated = {
    query: (text: string, params?: unknown[], options?: object) =>
      gate.run(
        () => text.slice(0, 200),
        () => client.query(text, params, options),
      ),
    transaction: <T>(fn: (tx: unknown) => Promise<T>) => gate.run(openedHere(), () => client.transaction(fn as never)),
  };
  const db = ambientDatabase(drizzlePglite({ client: gated as unknown as PGlite }) as unknown as Database);
  const raw = ambientRaw({
    // PGlite runs several statements only through exec, and parameters only through query.
    async executeSql(text, values) {
      return gate.run(
        () => text.slice(0, 200),
        async () => {
          if (values && values.length > 0) return client.query(text, values);
          const results = await client.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        },
      );
    },
  });
  preparedRunners.set(db, (_name, text, values) =>
    gate.run(
      () => text.slice(0, 200),
      () => client.query<Record<string, unknown>>(text, values),
    ),
  );
  return {
    kind: 'pglite',
    db,
    raw,
    wedged() {
      const holder = gate.current();
      return holder && Date.now() - holder.since > opts.waitMs ? holder : undefined;
    },
    // one process, one connection: nothing to lose, so the hooks are never called
    async listen(channel, handler) {
      const unlisten = await gate.run(
        () => `LISTEN ${channel}`,
        () => client.listen(channel, handler),
      );
      return async () => gate.run(() => `UNLISTEN ${channel}`, () => unlisten());
    },
    migrate: () => migrateOnce(raw, async () => {
      await migratePglite(db as never, { migrationsFolder });
      await applyRoutines(raw);
    }),
    seedOnce: (fingerprint, seed) => (fingerprint ? onceFor(raw, 'seed_fingerprint', fingerprint, seed) : seed()),
    dumpDataDir: () => gate.run(() => 'dumpDataDir', () => client.dumpDataDir('none')),
    async close() {
      await client.close();
    },
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Turns `text` with $1..$n placeholders into a drizzle SQL object, so it can run on a transaction. */
export function rawToSql(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(part));
    // param() keeps arrays as one parameter; drizzle would drop an undefined chunk, so send NULL.
    else chunks.push(sql`${param(values[Number(part) - 1] ?? null)}`);
  });
  return sql.join(chunks, sql.raw(''));
}

/** Runs raw SQL on an executor (database or transaction) and returns its rows. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

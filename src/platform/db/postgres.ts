import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ambientDatabase } from './ambient.js';
import { applyRoutines, migrateOnce, onceFor } from './fingerprints.js';
import type { Database, DatabaseHandle, ListenHooks, NotificationHandler } from './handle.js';
import { migrationsFolder } from './schema-files.js';
import { ambientRaw, quoteIdent, setPreparedRunner } from './sql-helpers.js';
import { assertOutsideTransaction, refuseBypasses, type TransactionBypassError } from './strict.js';

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => (Number.isSafeInteger(Number(v)) ? Number(v) : v));

/** The application_name of a process's listening connection (pg_stat_activity shows one per process). */
export const LISTENER_APPLICATION_NAME = 'cloud-platform listener';

/**
 * How often a process asks its listening connection whether it is still there. A connection that
 * goes silent without closing (a network partition, a failover that sends no reset) reports no
 * error: without the question the process would keep its settings cache for good.
 */
export const LISTENER_HEARTBEAT_MS = 10_000;

/** A PostgreSQL server: a pool, and one listening connection per process for every channel. */
export async function openPostgres(url: string, poolSize: number, waitMs: number, heartbeatMs: number, strict: boolean): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: waitMs });
  pool.on('error', () => {
    /* idle client errors are reported by the next query */
  });
  const bypasses: TransactionBypassError[] = [];
  if (strict) refuseBypasses(pool, bypasses);
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
  setPreparedRunner(db, (name, text, values) => pool.query({ name, text, values }));
  return {
    kind: 'postgres',
    db,
    raw,
    bypasses,
    wedged: () => undefined,
    async listen(channel, handler, hooks) {
      if (strict) assertOutsideTransaction(`LISTEN ${channel}`, bypasses);
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


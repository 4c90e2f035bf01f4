import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
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

/** The drizzle database, or a transaction on it: repositories take whichever they are given. */
export type Executor = PgDatabase<PgQueryResultHKT>;
export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseKind = 'pglite' | 'postgres';

/** Plain SQL access for libraries that bring their own SQL (pg-boss). */
export interface RawSql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export type NotificationHandler = (payload: string) => void;

export interface DatabaseHandle {
  readonly kind: DatabaseKind;
  readonly db: Database;
  readonly raw: RawSql;
  /** LISTEN on a channel; resolves to an unlisten function. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

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
}

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  if (opts.url?.startsWith('postgres')) return openPostgres(opts.url, opts.poolSize ?? 10);
  return openPglite(opts.url === 'memory://' ? undefined : path.join(opts.dataDir, 'pglite'));
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {
    /* idle client errors are reported by the next query */
  });
  const db = drizzlePg({ client: pool }) as unknown as Database;
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<NotificationHandler>>();

  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    client.on('error', () => {
      listener = undefined;
    });
    listener = client;
    return client;
  }

  const raw: RawSql = { executeSql: (text, values) => pool.query(text, values as unknown[]) };
  return {
    kind: 'postgres',
    db,
    raw,
    async listen(channel, handler) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${quoteIdent(channel)}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0) {
          handlers.delete(channel);
          await listener?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
        }
      };
    },
    async migrate() {
      await migratePg(db as never, { migrationsFolder });
      await applyRoutines(raw);
    },
    async close() {
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

async function openPglite(dir: string | undefined): Promise<DatabaseHandle> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? await PGlite.create(dir) : await PGlite.create();
  const db = drizzlePglite({ client }) as unknown as Database;
  const raw: RawSql = {
    // PGlite runs several statements only through exec, and parameters only through query.
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
  return {
    kind: 'pglite',
    db,
    raw,
    async listen(channel, handler) {
      const unlisten = await client.listen(channel, handler);
      return async () => unlisten();
    },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder });
      await applyRoutines(raw);
    },
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

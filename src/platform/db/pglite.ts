import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { ambientDatabase } from './ambient.js';
import { applyRoutines, migrateOnce, onceFor } from './fingerprints.js';
import { ConnectionGate } from './gate.js';
import type { Database, DatabaseHandle, OpenOptions } from './handle.js';
import { migrationsFolder } from './schema-files.js';
import { ambientRaw, setPreparedRunner } from './sql-helpers.js';

/**
 * PostgreSQL settings of the embedded database. It is one connection in one process whose data
 * files sit in the OS page cache anyway, so 16 MB of shared buffers (PostgreSQL's default: 128 MB,
 * all of it inside PGlite's WebAssembly heap, which never shrinks) costs no measurable speed and
 * about 110 MB of resident memory less.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** Where the embedded database keeps its files under DATA_DIR. */
export const embeddedDataFolder = (dataDir: string) => path.join(dataDir, 'pglite');

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

/** The embedded database (PGlite): one connection, taken in turns at the gate. */
export async function openPglite(dir: string | undefined, opts: OpenOptions): Promise<DatabaseHandle> {
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
  setPreparedRunner(db, (_name, text, values) =>
    gate.run(
      () => text.slice(0, 200),
      () => client.query<Record<string, unknown>>(text, values),
    ),
  );
  return {
    kind: 'pglite',
    db,
    raw,
    bypasses: [],
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


import { installQueryErrorText } from './query-errors.js';
import type { DatabaseHandle, OpenOptions } from './handle.js';
import { embeddedDataFolder, openPglite } from './pglite.js';
import { LISTENER_HEARTBEAT_MS, openPostgres } from './postgres.js';

/**
 * The database: PostgreSQL (a postgres:// URL) or the embedded PGlite behind one handle. The
 * handle's types are in handle.ts, each database's opening in postgres.ts and pglite.ts, the
 * migration and seed fingerprints in fingerprints.ts, the raw-SQL helpers in sql-helpers.ts.
 */
export type { Database, DatabaseHandle, DatabaseKind, Executor, ListenHooks, NotificationHandler, OpenOptions, RawSql } from './handle.js';
export { migrationCount, migrationsFolder, projectRoot, routinesFolder, seedDataFiles, seedFingerprint } from './schema-files.js';
export { embeddedDataFolder } from './pglite.js';
export { LISTENER_APPLICATION_NAME, LISTENER_HEARTBEAT_MS } from './postgres.js';
export { preparedRunnerOf, queryRows, rawToSql } from './sql-helpers.js';

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  // a failed query's message is the database's words, never the statement (query-errors.ts)
  installQueryErrorText();
  if (opts.url?.startsWith('postgres')) return openPostgres(opts.url, opts.poolSize ?? 10, opts.waitMs, opts.listenerHeartbeatMs ?? LISTENER_HEARTBEAT_MS, opts.strictTransactions === true);
  return openPglite(opts.url === 'memory://' ? undefined : embeddedDataFolder(opts.dataDir), opts);
}


import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { GateHolder } from './gate.js';
import type { TransactionBypassError } from './strict.js';

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
  /**
   * PostgreSQL opened with `strictTransactions`: the queries it refused because they bypassed the
   * open transaction of their context (strict.ts); empty otherwise.
   */
  readonly bypasses: readonly TransactionBypassError[];
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
   * PostgreSQL only: refuse a query that arrives on the pool from inside an open transaction's
   * context (strict.ts), as the embedded database would hang on it. Tests turn it on.
   */
  strictTransactions?: boolean;
  /**
   * PostgreSQL only: how often the listening connection is asked a `SELECT 1`; one not answered
   * by the next ask counts as lost (default LISTENER_HEARTBEAT_MS).
   */
  listenerHeartbeatMs?: number;
}


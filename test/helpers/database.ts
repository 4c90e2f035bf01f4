import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.js';
import { buildContainer } from '../../src/container.js';
import { sourceFingerprint } from '../../src/platform/db/schema-files.js';
import { createLogger } from '../../src/platform/logger.js';

/** The PostgreSQL server the tests use; one database per test file is created on it. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function urlFor(database: string): string {
  const u = new URL(TEST_SERVER_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The template of this code's databases: named by the same fingerprint as the embedded database's template. */
export function templateName(): string {
  return `chp_tpl_${sourceFingerprint().slice(0, 16)}`;
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Templates of other versions of the code, and test databases a crashed run left behind, once they
 * are an hour old (a younger one may belong to a run still going in another checkout; a run whose
 * template was dropped meanwhile builds it again).
 */
async function dropStaleDatabases(admin: pg.Client, keep: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database
      WHERE (datname LIKE 'chp\\_tpl\\_%' OR datname LIKE 'chp\\_t\\_%') AND datname <> $1 AND datname NOT LIKE '%\\_build'
        AND (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - interval '1 hour'`,
    [keep],
  );
  for (const { datname } of rows) {
    try {
      await admin.query(`ALTER DATABASE "${datname}" WITH is_template = false`);
      await admin.query(`DROP DATABASE "${datname}"`);
    } catch {
      // in use or already gone: the next schema change tries again
    }
  }
}

/** Migrates and seeds a template database once per version of the code (guarded by an advisory lock). */
async function ensureTemplate(): Promise<string> {
  const name = templateName();
  return withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(727001)');
    try {
      const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length > 0) return name;
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const config = loadConfig({ DATABASE_URL: urlFor(building), LOG_LEVEL: 'silent', NODE_ENV: 'test' });
      const c = await buildContainer(config, { log: createLogger('silent') });
      await c.close();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${name} WITH is_template = true`);
      // needs a superuser (pg_stat_file): a cleanup that cannot run is skipped
      await dropStaleDatabases(admin, name).catch(() => undefined);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(727001)');
    }
  });
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated and seeded database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `chp_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    // CREATE DATABASE ... TEMPLATE needs the template to have no other connections; retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (err) {
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  return {
    name,
    url: urlFor(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Which database the HTTP suites run on: TEST_DB=embedded runs them on PGlite (scripts/run-tests.mjs runs both). */
export type TestDatabaseKind = 'postgres' | 'embedded';
export const TEST_DB: TestDatabaseKind = process.env.TEST_DB === 'embedded' ? 'embedded' : 'postgres';

/**
 * The options of a test or suite that runs on PostgreSQL only (two processes on one database,
 * races between connections), with the reason: `test('…', postgresOnly('two API processes'), …)`.
 * It matters in a suite that also runs on the embedded database (`@embedded-twin`).
 */
export function postgresOnly(reason: string): { skip: string | false } {
  return { skip: TEST_DB === 'postgres' ? false : `PostgreSQL only: ${reason}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A migrated and seeded PGlite data folder as a tarball, built once per version of the code (the
 * embedded twin of the template database): a test file's in-memory database loads it in about a
 * second instead of running initdb, migrations and seeds. Several test processes may ask at once;
 * one builds (under a lock file), the others wait for the file.
 */
export async function embeddedSnapshot(): Promise<Blob> {
  const file = path.join(tmpdir(), `${templateName()}.pglite.tar`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      // another process is building it; a lock older than 5 minutes belongs to a crashed build
      try {
        if (Date.now() - statSync(lock).mtimeMs > 5 * 60_000) rmSync(lock, { force: true });
      } catch {
        // gone meanwhile
      }
      await sleep(200);
      continue;
    }
    try {
      const config = loadConfig({ DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: tmpdir() });
      const c = await buildContainer(config, { log: createLogger('silent') });
      const blob = await c.database.dumpDataDir();
      await c.close();
      writeFileSync(`${file}.tmp`, Buffer.from(await blob.arrayBuffer()));
      renameSync(`${file}.tmp`, file);
      // the snapshots of other versions of the code, once they are an hour old
      for (const name of readdirSync(tmpdir())) {
        const other = path.join(tmpdir(), name);
        if (/^chp_tpl_[0-9a-f]+\.pglite\.tar$/.test(name) && other !== file && Date.now() - statSync(other).mtimeMs > 3600_000) rmSync(other, { force: true });
      }
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
  }
}

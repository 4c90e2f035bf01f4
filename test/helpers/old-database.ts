import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { TEST_SERVER_URL } from './database.js';

/** A database as an older release left it, for the suites that prove a migration on real data. */
export interface OldDatabase {
  db: DatabaseHandle;
  /** closes it, drops the PostgreSQL database and removes the old migrations' folder */
  close(): Promise<void>;
}

/**
 * A fresh database (a PostgreSQL database of its own, or an in-memory embedded one) migrated by
 * every migration before the one whose tag ends with `tagSuffix`. `db.migrate()` then applies the
 * rest, as the next start would.
 */
export async function databaseBefore(kind: 'postgres' | 'embedded', tagSuffix: string): Promise<OldDatabase> {
  const folder = mkdtempSync(path.join(tmpdir(), 'chp-mig-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  assert.ok(at > 0, `a migration named *${tagSuffix} is in the journal`);
  for (const e of journal.entries.slice(at)) rmSync(path.join(folder, `${e.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));

  const log = createLogger('silent');
  if (kind === 'embedded') {
    const db = await openDatabase({ url: 'memory://', dataDir: folder, waitMs: 60_000, log });
    await migratePglite(db.db as never, { migrationsFolder: folder });
    return {
      db,
      async close() {
        await db.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const name = `chp_t_mig_${randomBytes(5).toString('hex')}`;
  const server = async (statement: string) => {
    const admin = new pg.Client({ connectionString: TEST_SERVER_URL });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await server(`CREATE DATABASE ${name}`);
  const u = new URL(TEST_SERVER_URL);
  u.pathname = `/${name}`;
  const db = await openDatabase({ url: u.toString(), dataDir: folder, waitMs: 60_000, log, poolSize: 2 });
  await migratePg(db.db as never, { migrationsFolder: folder });
  return {
    db,
    async close() {
      await db.close();
      await server(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

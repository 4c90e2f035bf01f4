import { migrationsFingerprint, routineFiles } from './schema-files.js';
import type { RawSql } from './handle.js';

export async function applyRoutines(raw: RawSql): Promise<void> {
  for (const file of routineFiles()) {
    try {
      await raw.executeSql(file.sql);
    } catch (err) {
      throw new Error(`routine ${file.name} failed: ${(err as Error).message}`);
    }
  }
}

/**
 * Runs `apply` unless the database records that it last ran for exactly this fingerprint (a
 * one-row table in the drizzle schema, next to drizzle's own journal), then records it.
 */
export async function onceFor(raw: RawSql, table: 'schema_fingerprint' | 'seed_fingerprint', fingerprint: string, apply: () => Promise<void>): Promise<void> {
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
export function migrateOnce(raw: RawSql, apply: () => Promise<void>): Promise<void> {
  return onceFor(raw, 'schema_fingerprint', migrationsFingerprint(), apply);
}


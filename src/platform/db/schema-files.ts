import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files a database is made from (migrations, routines, the data files the seeds read) and the
 * fingerprints over them that say when a database, or a template of one, is current.
 */

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

export function routineFiles(): { name: string; sql: string }[] {
  if (!existsSync(routinesFolder)) return [];
  return readdirSync(routinesFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(routinesFolder, name), 'utf8') }));
}

export function migrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** A hash of the migrations, their journal and the routines: what `migrate()` would apply. */
export function migrationsFingerprint(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) h.update(f).update(readFileSync(path.join(migrationsFolder, f)));
  h.update(readFileSync(path.join(migrationsFolder, 'meta/_journal.json')));
  for (const f of routineFiles()) h.update(f.name).update(f.sql);
  return h.digest('hex');
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

/** The TypeScript sources of the service (src/, tests left out): the seeds and everything they call. */
export function sourceFiles(dir = path.join(projectRoot, 'src')): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return sourceFiles(full);
      return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
    });
}

/** The rest of a seed fingerprint: the locked packages (the countries come from one), the seeds' data files and the schema. */
function hashInputs(h: ReturnType<typeof createHash>): string {
  const lock = path.join(projectRoot, 'package-lock.json');
  if (existsSync(lock)) h.update(readFileSync(lock));
  for (const f of seedDataFiles()) h.update(path.relative(projectRoot, f)).update(readFileSync(f));
  return h.update(migrationsFingerprint()).digest('hex');
}

let sourcesFingerprint: string | undefined;

/**
 * What the seeds of the code in src/ are made of: every source file (the seeds call services,
 * repositories and tables all over the code, so no narrower list stays true for long), the locked
 * packages, the seeds' data files and the schema. It names the test databases' template
 * (test/helpers/database.ts) and the embedded database's template (embedded-template.ts): a
 * template built from other code is never used. Read once per process: a process runs the code it
 * loaded at its start.
 */
export function sourceFingerprint(): string {
  if (sourcesFingerprint) return sourcesFingerprint;
  const h = createHash('sha256');
  for (const f of sourceFiles()) h.update(path.relative(projectRoot, f)).update(readFileSync(f));
  sourcesFingerprint = hashInputs(h);
  return sourcesFingerprint;
}

/**
 * The seed fingerprint of the running code (DatabaseHandle.seedOnce), given the file of the module
 * asking: the compiled bundle `npm start` runs (dist/server.js) is hashed as it is; code run as
 * TypeScript (tsx, the test bundles) gets sourceFingerprint(), the one its template was built with,
 * so a database made from a current template is not seeded again.
 */
export function seedFingerprint(codeFile: string): string {
  if (!codeFile.endsWith('.js')) return sourceFingerprint();
  return hashInputs(createHash('sha256').update(readFileSync(codeFile)));
}

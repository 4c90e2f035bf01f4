import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { migrationsFingerprint, projectRoot, seedDataFiles } from './database.js';

/**
 * The embedded database's template: a PGlite data folder that is migrated and holds the reference
 * data (the area tables), built once per schema version under `.cache/` of the project. A new
 * data folder starts as a copy of it instead of running initdb, the migrations and the seeds in
 * the service's own process: initdb alone costs seconds and grows PGlite's WebAssembly heap by
 * about 500 MB that is never given back. The template is built by a child process (the same entry
 * point, in "prepare" mode), so that memory dies with it.
 */

/** Changes whenever a migration, a routine, a seed, its data or a locked dependency changes. */
export function schemaFingerprint(): string {
  const h = createHash('sha256').update(migrationsFingerprint());
  for (const f of [...seedSources(path.join(projectRoot, 'src')), ...seedDataFiles()]) h.update(path.relative(projectRoot, f)).update(readFileSync(f));
  const lock = path.join(projectRoot, 'package-lock.json');
  if (existsSync(lock)) h.update(readFileSync(lock));
  return h.digest('hex').slice(0, 16);
}

function seedSources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return seedSources(full);
      return name.endsWith('.seed.ts') ? [full] : [];
    });
}

export function templateDir(): string {
  return path.join(projectRoot, '.cache', `embedded-${schemaFingerprint()}`);
}

/** True when `dir` holds no PGlite/PostgreSQL data folder yet. */
export function isFreshDataFolder(dir: string): boolean {
  return !existsSync(path.join(dir, 'PG_VERSION'));
}

/** The environment variable that turns the entry point into the template builder. */
export const PREPARE_ENV = 'CHP_PREPARE_EMBEDDED_TEMPLATE';

/**
 * The template for a fresh embedded data folder, built now when it is missing (by running
 * `entry` again as a child process with PREPARE_ENV set). Returns undefined when it cannot be
 * built (a read-only checkout, say): the database then initialises itself as before.
 */
export function ensureEmbeddedTemplate(entry: string, warn: (msg: string) => void): string | undefined {
  let dir: string;
  try {
    dir = templateDir();
    if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
    mkdirSync(path.dirname(dir), { recursive: true });
  } catch (err) {
    warn(`embedded template unavailable: ${(err as Error).message}`);
    return undefined;
  }
  const building = `${dir}.build-${process.pid}`;
  try {
    rmSync(building, { recursive: true, force: true });
    const r = spawnSync(process.execPath, [...process.execArgv, entry], {
      env: { ...process.env, [PREPARE_ENV]: building },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`template builder exited with ${r.status ?? r.signal}`);
    try {
      renameSync(path.join(building, 'pglite'), dir);
    } catch (err) {
      // another start built it at the same time: theirs is as good as ours
      if (!existsSync(path.join(dir, 'PG_VERSION'))) throw err;
    }
    pruneOldTemplates(path.basename(dir));
    return dir;
  } catch (err) {
    warn(`embedded template not built, initialising the database in place: ${(err as Error).message}`);
    return undefined;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** Templates of earlier schema versions. */
function pruneOldTemplates(keep: string): void {
  const cache = path.join(projectRoot, '.cache');
  for (const name of readdirSync(cache)) {
    if (name.startsWith('embedded-') && name !== keep && !name.includes('.build-')) rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

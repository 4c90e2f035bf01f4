import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, sourceFingerprint } from './schema-files.js';

/**
 * The embedded database's template: a PGlite data folder that is migrated, seeded and holds
 * pg-boss's schema, built once per version of the code under `.cache/` of the project. A new data
 * folder starts as a copy of it instead of running initdb, the migrations and the seeds in the
 * service's own process: initdb alone costs seconds and grows PGlite's WebAssembly heap by about
 * 500 MB that is never given back. `npm install` builds it (the `postinstall` script, through
 * `node scripts/start.mjs --prepare`); a start that finds none builds it first. Either way the
 * builder is a process of its own (the entry point with BUILD_TEMPLATE_ENV set), so that memory
 * dies with it.
 */

/** Named by sourceFingerprint(), as the test databases' template is: built from other code, it is not used. */
export function templateDir(): string {
  return path.join(projectRoot, '.cache', `embedded-${sourceFingerprint().slice(0, 16)}`);
}

/** True when `dir` holds no PGlite/PostgreSQL data folder yet. */
export function isFreshDataFolder(dir: string): boolean {
  return !existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * A template is complete once its folder exists under its final name: builders work in a folder
 * of their own (`<template>.build-<pid>-<random>`) and rename it only after the database was shut down
 * cleanly, so a crashed or interrupted build is never taken for a template.
 */
export function templateReady(dir: string): boolean {
  return existsSync(path.join(dir, 'PG_VERSION'));
}

/** Set (to the template folder to build) in the environment of the builder process. */
export const BUILD_TEMPLATE_ENV = 'CHP_BUILD_EMBEDDED_TEMPLATE';

/**
 * V8 flags of the builder. `--liftoff-only`: the builder runs initdb and the migrations once and
 * exits, and V8's optimising compiler spent more time compiling PGlite's 9 MB of WebAssembly than
 * it saved (about a fifth of the builder's CPU time).
 */
export const BUILDER_V8_FLAGS = ['--liftoff-only'];

/**
 * In the builder process: builds the template `target` unless it is there, with `build`, which
 * gets a DATA_DIR to create the database in (as `<dataDir>/pglite`) and must close it cleanly.
 * Several builders may run at once (two starts, a start and `npm install`): each builds in its own
 * folder, the first to finish renames its folder into place and the others drop theirs.
 */
export async function buildEmbeddedTemplate(target: string, build: (dataDir: string) => Promise<void>): Promise<'built' | 'present'> {
  if (templateReady(target)) return 'present';
  const cache = path.dirname(target);
  mkdirSync(cache, { recursive: true });
  removeAbandonedBuilds(cache);
  const building = `${target}.build-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await build(building);
    const data = path.join(building, 'pglite');
    if (!templateReady(data)) throw new Error(`the build left no database in ${data}`);
    try {
      renameSync(data, target);
    } catch (err) {
      // another builder finished first: theirs is as good as ours
      if (!templateReady(target)) throw err;
      return 'present';
    }
    pruneOldTemplates(cache, path.basename(target));
    return 'built';
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * In a starting server: the template for a fresh embedded data folder, built now when it is
 * missing by running `entry` (the server's entry point) again as a builder process, with the
 * node flags of this one unless `nodeFlags` says otherwise. Returns
 * undefined when it cannot be had (a read-only checkout, a failed build): the database then
 * initialises itself in place.
 */
export function ensureEmbeddedTemplate(entry: string, warn: (msg: string) => void, target?: string, nodeFlags: string[] = process.execArgv): string | undefined {
  let dir: string;
  try {
    dir = target ?? templateDir();
    if (templateReady(dir)) return dir;
    mkdirSync(path.dirname(dir), { recursive: true });
  } catch (err) {
    warn(`embedded template unavailable: ${(err as Error).message}`);
    return undefined;
  }
  const r = spawnSync(process.execPath, [...nodeFlags, ...BUILDER_V8_FLAGS, entry], {
    env: { ...process.env, [BUILD_TEMPLATE_ENV]: dir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (templateReady(dir)) return dir;
  warn(`embedded template not built (builder exited with ${r.status ?? r.signal ?? r.error?.message}), initialising the database in place`);
  return undefined;
}

/** The build folders of builders that are gone (crashed, killed): never used, only removed. */
function removeAbandonedBuilds(cache: string): void {
  for (const name of readdirSync(cache)) {
    const pid = Number(/\.build-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Templates of earlier schema versions. */
function pruneOldTemplates(cache: string, keep: string): void {
  for (const name of readdirSync(cache)) {
    if (name.startsWith('embedded-') && name !== keep && !name.includes('.build-')) rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

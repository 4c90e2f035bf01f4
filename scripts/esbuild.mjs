/* global process */
// What the server bundle (scripts/start.mjs) and the test bundle (scripts/run-tests.mjs) share:
// esbuild itself and which packages stay in node_modules.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Dependencies bundled into the output instead of loaded from node_modules: ES modules of plain
 * JavaScript that read no files of their own and that no other package loads at run time. TypeBox
 * and drizzle-orm are 700 and 300 small modules; resolving and loading each one took a third of a
 * second of every start.
 */
export const INLINED = ['typebox', 'drizzle-orm'];

/** esbuild, the one tsx brings along (so nothing extra is installed); throws when there is none. */
export function loadEsbuild() {
  const require = createRequire(import.meta.url);
  try {
    return require('esbuild');
  } catch {
    // not hoisted: take it from tsx's own dependencies
    return createRequire(require.resolve('tsx'))('esbuild');
  }
}

/** esbuild's `external` for the packages of `package.json` (`dev`: the devDependencies too), but INLINED. */
export function externals(root = process.cwd(), { dev = false } = {}) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...(dev ? Object.keys(pkg.devDependencies ?? {}) : [])];
  return names.filter((d) => !INLINED.includes(d)).flatMap((d) => [d, `${d}/*`]);
}

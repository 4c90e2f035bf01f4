/* global process, console */
// `npm start`: runs the compiled server. src/ is bundled to dist/server.js with esbuild (the one tsx
// brings along, so nothing extra is installed) whenever a source file is newer than the bundle,
// which takes a fraction of a second; loading one JavaScript file then saves the seconds tsx spends
// compiling every module at each start. Without esbuild it falls back to tsx.
//
//   node scripts/start.mjs            build when stale, then run the server in this process
//   node scripts/start.mjs --build    only build
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildConsoleInBackground } from './build-console.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'src/server.ts');
const bundle = path.join(root, 'dist/server.js');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = statSync(full);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(full) : st.mtimeMs);
  }
  return newest;
}

function stale() {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  const inputs = [newestMtime(path.join(root, 'src')), ...['package.json', 'package-lock.json', 'tsconfig.json'].map((f) => (existsSync(path.join(root, f)) ? statSync(path.join(root, f)).mtimeMs : 0))];
  return inputs.some((m) => m > built);
}

function loadEsbuild() {
  const require = createRequire(import.meta.url);
  try {
    return require('esbuild');
  } catch {
    // not hoisted: take it from tsx's own dependencies
    return createRequire(require.resolve('tsx'))('esbuild');
  }
}

/** true when dist/server.js is current (built now or before). */
function build() {
  if (!stale()) return true;
  let esbuild;
  try {
    esbuild = loadEsbuild();
  } catch {
    return false;
  }
  esbuild.buildSync({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return true;
}

const onlyBuild = process.argv.includes('--build');
const compiled = build();
// the web console is rebuilt beside the server when its sources changed (scripts/build-console.mjs)
if (!onlyBuild) await buildConsoleInBackground();
if (onlyBuild) {
  if (!compiled) {
    console.error('esbuild not found (it comes with tsx)');
    process.exit(1);
  }
} else if (compiled) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  // the embedded template builder re-runs the entry point as a child process with these flags
  process.execArgv.push('--import', 'tsx');
  await import(pathToFileURL(entry).href);
}
